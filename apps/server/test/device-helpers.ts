import { createHash } from 'node:crypto';
import type { TestApp } from './helpers.ts';

/** A device password made through the API, as the personal center makes it. */
export async function newDevicePassword(
  t: TestApp,
  token: string,
  name = 'KOReader',
): Promise<{ id: number; username: string; password: string }> {
  const res = await t.call('POST', '/api/user/devicePasswords', { token, body: { name } });
  if (res.code !== 0) throw new Error(`device password: ${JSON.stringify(res.data)}`);
  return res.data;
}

/** HTTP Basic, as an OPDS client sends it. */
export const basic = (username: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`,
});

/** Written independently of the product's device-keys.ts: what KOReader's `md5(password)` sends. */
export const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

/** The headers KOReader's kosync client sends (KOSyncClient.lua: GinClient and KOSyncAuth middlewares). */
export const kosyncHeaders = (username: string, password: string) => ({
  accept: 'application/vnd.koreader.v1+json',
  'x-auth-user': username,
  'x-auth-key': md5(password),
});
