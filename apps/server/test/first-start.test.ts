import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { withDatabase } from './global-setup.ts';
import { startTestApp, STRONG_PASSWORD, type TestApp } from './helpers.ts';

/**
 * Every process of a deployment starting at once on a database that has nothing yet (issue 28): the
 * migrations, the job queue's schema and queues, the first admin. Each test app here is a whole
 * process's boot (its own pools), all against one fresh database.
 */
describe('a deployment starting all at once on a fresh database', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('brings four processes up together, with one admin among them', async () => {
    const adminUrl = inject('pgAdminUrl');
    const name = `yidu_fresh_${randomBytes(6).toString('hex')}`;
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
    await client.end();
    const env = {
      DATABASE_URL: withDatabase(adminUrl, name),
      ADMIN_ACCOUNT: 'admin',
      ADMIN_PASSWORD: STRONG_PASSWORD,
    };
    const started = await Promise.allSettled(Array.from({ length: 4 }, () => startTestApp(env)));
    for (const result of started) if (result.status === 'fulfilled') apps.push(result.value);
    expect(started.map((r) => (r.status === 'rejected' ? String(r.reason) : 'up'))).toEqual(Array(4).fill('up'));

    const admins = await apps[0]!.running.infra.db
      .selectFrom('users')
      .select('account')
      .where('role', '=', 'admin')
      .execute();
    expect(admins).toEqual([{ account: 'admin' }]);
    // Each of them answers, and the queue works for all (a job sent by one is run).
    for (const app of apps) expect((await app.call('GET', '/api/health')).status).toBe(200);
    const queue = apps[0]!.running.infra.queue;
    const id = await queue.send('system.ping', { sentAt: Date.now() });
    const deadline = Date.now() + 20_000;
    let state: string | undefined;
    while (Date.now() < deadline && state !== 'completed') {
      state = await queue.jobState('system.ping', id!);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(state).toBe('completed');
  }, 180_000);
});
