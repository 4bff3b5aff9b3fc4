import { createHash, createHmac, randomInt } from 'node:crypto';

/**
 * Device passwords and what is kept of them (docs/adr/0025-device-passwords.md).
 *
 * KOReader's progress sync sends `x-auth-key: md5(password)`, never the password; an OPDS client
 * sends the password itself (HTTP Basic), whose md5 the server takes. Both therefore meet at the md5,
 * and what is stored is an HMAC-SHA256 of it under the app secret: a stolen database alone cannot
 * test a single guess, and with the secret too every guess is still a guess at ~99 random bits (the
 * server makes the password; nobody chooses a weak one). A slow hash (argon2) protects passwords
 * people choose; here it would only be paid on every request a device makes.
 */

// No 0/o, 1/l/i: read off a screen and typed on an e-reader's keyboard.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const GROUPS = 5;
const GROUP_LENGTH = 4;

/** A new device password: 20 characters of 31 (99 bits) in groups of four, e.g. `k7mq-3xhv-…`. */
export function newDevicePassword(): string {
  return Array.from({ length: GROUPS }, () =>
    Array.from({ length: GROUP_LENGTH }, () => ALPHABET[randomInt(0, ALPHABET.length)]).join(''),
  ).join('-');
}

/** What KOReader sends for a password: the MD5 of its UTF-8 bytes, in lower-case hex. */
export const md5Hex = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex');

/** An md5 in the form KOReader sends it. */
export const isMd5Hex = (text: string): boolean => /^[0-9a-fA-F]{32}$/.test(text);

/** The stored form of a device password, from the md5 of it. */
export const deviceKeyHmac = (appSecret: string, passwordMd5: string): string =>
  createHmac('sha256', appSecret).update(`yidu-device-password\n${passwordMd5.toLowerCase()}`).digest('hex');
