import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeMicrosoft,
  startFakeOpenAi,
  type FakeMicrosoft,
  type FakeServer,
} from '../../engines/translation/testing/fake-servers.ts';
import { seedChineseBook, startTestApp, type TestApp } from '../../../test/helpers.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever the events hold
type Json = any;

/** A streamed AI answer read as the browser reads it: server-sent events over a real connection. */
async function streamed(t: TestApp, path: string, token: string, body: unknown) {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((e) => e.startsWith('event:'))
    .map((e) => ({ event: /^event: (\w+)/.exec(e)![1]!, data: JSON.parse(e.split('data: ')[1]!) as Json }));
}

const item = (report: Json, id: string) => report.items.find((i: { id: string }) => i.id === id);

describe('the set-up checklist and engine health', () => {
  let t: TestApp;
  let microsoft: FakeMicrosoft;
  let llm: FakeServer;
  let admin: string;
  let reader: string;
  let code: string;

  beforeAll(async () => {
    microsoft = await startFakeMicrosoft();
    llm = await startFakeOpenAi({ key: 'sk-thinking-model-key-0042' });
    // A fresh install: the default engine cannot be reached, no AI model, mail to the outbox, invitations required.
    t = await startTestApp({
      EMAIL_ACTIVATION: 'false',
      ADMIN_ACCOUNT: 'ops',
      ADMIN_PASSWORD: 'Ops2026pass',
      PUBLIC_URL: 'http://localhost:3000',
    });
    admin = (await t.call('POST', '/api/auth/login', { body: { account: 'ops', password: 'Ops2026pass' } })).data.token;
    const { codes } = (
      await t.call('POST', '/api/admin/invite-codes', { token: admin, body: { count: 1, maxUses: 1 } })
    ).data;
    const registered = await t.call('POST', '/api/auth/register', {
      body: {
        method: 'email',
        email: 'r@example.com',
        account: 'reader',
        password: 'Reading2026',
        inviteCode: codes[0],
      },
    });
    reader = registered.data.token;
    code = await seedChineseBook(t, 'reader');
  });
  afterAll(async () => {
    await t?.close();
    await microsoft?.close();
    await llm?.close();
  });

  it('tells admins what a fresh install lacks', async () => {
    const report = (await t.call('GET', '/api/admin/setup', { token: admin })).data;
    expect(report.attention).toBe(true);
    expect(item(report, 'translation')).toMatchObject({ essential: true, status: 'unknown' });
    expect(item(report, 'explanationModel')).toMatchObject({ essential: true, status: 'missing' });
    expect(item(report, 'annotationModel')).toMatchObject({ essential: false, status: 'missing' });
    expect(item(report, 'mail')).toMatchObject({ status: 'warning', detail: { mode: 'outbox' } });
    expect(item(report, 'sms')).toMatchObject({ status: 'warning', detail: { mode: 'outbox' } });
    // The one code minted was used by the reader.
    expect(item(report, 'invites')).toMatchObject({ status: 'warning', detail: { required: true, usable: 0 } });
    expect(item(report, 'publicUrl')).toMatchObject({ status: 'warning' });
    // The test's DATA_DIR is on the machine's disk: its space is read (disk-full.test.ts sees one fill).
    const storage = item(report, 'storage');
    expect(storage).toMatchObject({ essential: true, detail: { dataDir: expect.any(String) } });
    expect(storage.detail.freeMb).toBeGreaterThan(0);
    expect(storage.detail.totalMb).toBeGreaterThanOrEqual(storage.detail.freeMb);
    expect(report.health).toEqual([expect.objectContaining({ key: 'translation:microsoft', status: 'unknown' })]);
  });

  it('finds out that no engine works when asked to check now', async () => {
    const report = (await t.call('POST', '/api/admin/setup/check', { token: admin })).data;
    expect(item(report, 'translation').status).toBe('failing');
    const microsoftHealth = report.health.find((h: { key: string }) => h.key === 'translation:microsoft');
    expect(microsoftHealth).toMatchObject({ status: 'failing', checkedBy: 'probe' });
    expect(microsoftHealth.lastError).toMatch(/^network/);
    expect(report.attention).toBe(true);
  });

  it('learns from real use that an engine works again', async () => {
    await t.call('PUT', '/api/admin/engines', {
      token: admin,
      body: [{ name: 'microsoft', enabled: true, endpoint: microsoft.url }],
    });
    await t.running.services.translation.translate(['Good morning'], 'en', 'de');
    const report = (await t.call('GET', '/api/admin/setup', { token: admin })).data;
    expect(item(report, 'translation')).toMatchObject({ status: 'ok', detail: { engines: 'microsoft', working: 1 } });
    const health = report.health.find((h: { key: string }) => h.key === 'translation:microsoft');
    expect(health).toMatchObject({ status: 'ok', checkedBy: 'use' });
    expect(health.latencyMs).toBeGreaterThanOrEqual(0);
    // The probe leaves an engine alone that real use proved lately: no request is spent on it.
    const calls = microsoft.calls.length;
    await t.running.services.setup.probe({ freshMs: 60_000 });
    expect(microsoft.calls.length).toBe(calls);
  });

  it('counts the AI model as set up once an admin saves one that answers, and the banner goes', async () => {
    await t.call('PUT', '/api/admin/ai-models/explanation', {
      token: admin,
      body: { baseUrl: llm.url, model: 'qwen3:8b', apiKey: 'sk-thinking-model-key-0042' },
    });
    const before = (await t.call('GET', '/api/admin/setup', { token: admin })).data;
    expect(item(before, 'explanationModel')).toMatchObject({ status: 'unknown', detail: { source: 'admin' } });
    expect(item(before, 'annotationModel')).toMatchObject({ status: 'unknown', detail: { source: 'inherited' } });
    expect(before.attention).toBe(false);
    const tested = await t.call('POST', '/api/admin/ai-models/test', { token: admin, body: { use: 'explanation' } });
    expect(tested.data.ok).toBe(true);
    const after = (await t.call('GET', '/api/admin/setup', { token: admin })).data;
    expect(item(after, 'explanationModel').status).toBe('ok');
    expect(after.health.find((h: { key: string }) => h.key === 'ai:explanation')).toMatchObject({ checkedBy: 'test' });
  });

  it('keeps keys out of the errors admins see', async () => {
    // OpenAI-style services quote the key they refuse.
    llm.setBehaviour({
      failNext: [
        { status: 401, body: { error: { message: 'Incorrect API key provided: sk-thinking-model-key-0042.' } } },
      ],
    });
    const tested = await t.call('POST', '/api/admin/ai-models/test', { token: admin, body: { use: 'explanation' } });
    expect(tested.data.ok).toBe(false);
    const report = (await t.call('GET', '/api/admin/setup', { token: admin })).data;
    expect(item(report, 'explanationModel').status).toBe('failing');
    expect(report.attention).toBe(true);
    const text = JSON.stringify([tested.data, report]);
    expect(text).toContain('Incorrect API key provided');
    expect(text).not.toContain('sk-thinking-model-key-0042');
  });

  it("never shows a reasoning model's thinking as an answer, streamed or not", async () => {
    llm.setBehaviour({
      think: 'The reader asks about 将真事隐去. I should explain the idiom. Draft: hides the true story.',
      reasoningContent: 'Reasoning sent in its own field.',
      chunkChars: 4,
      reply: ({ messages }) =>
        /JSON/.test(messages[0]?.content ?? '')
          ? '{"notes":[{"p":1,"term":"甄士隐","kind":"name","note":"A pun on hiding the truth."}]}'
          : 'It means hiding the real events of the story.',
    });
    const events = await streamed(t, '/api/reader/ai/explain', reader, {
      bookCode: code,
      blockId: 'c1-b2',
      selection: '将真事隐去',
      language: 'en',
      requestId: 'think-stream-1',
    });
    const deltas = events.filter((e) => e.event === 'delta').map((e) => e.data.text as string);
    expect(deltas.join('')).toBe('It means hiding the real events of the story.');
    expect(events.at(-1)).toMatchObject({
      event: 'done',
      data: { text: 'It means hiding the real events of the story.' },
    });
    expect(JSON.stringify(events)).not.toMatch(/think|Draft|Reasoning/);

    const whole = await t.call('POST', '/api/reader/ai/explain', {
      token: reader,
      body: {
        bookCode: code,
        blockId: 'c1-b3',
        selection: '列位看官',
        language: 'en',
        stream: false,
        requestId: 'think-json-1',
      },
    });
    expect(whole.data.text).toBe('It means hiding the real events of the story.');

    const notes = await t.call('POST', '/api/reader/ai/annotate', {
      token: reader,
      body: { bookCode: code, language: 'en', page: 1 },
    });
    expect(notes.data.annotations).toEqual([
      expect.objectContaining({ term: '甄士隐', note: 'A pun on hiding the truth.' }),
    ]);
    llm.setBehaviour({ think: undefined, reasoningContent: undefined, reply: undefined });

    // Real use counts: the model works again.
    await t.running.services.health.flush();
    const report = (await t.call('GET', '/api/admin/setup', { token: admin })).data;
    expect(report.health.find((h: { key: string }) => h.key === 'ai:explanation')).toMatchObject({
      status: 'ok',
      checkedBy: 'use',
    });
  });

  it('marks invitations as available once codes are minted', async () => {
    await t.call('POST', '/api/admin/invite-codes', { token: admin, body: { count: 2, maxUses: 5 } });
    const report = (await t.call('GET', '/api/admin/setup', { token: admin })).data;
    expect(item(report, 'invites')).toMatchObject({ status: 'ok', detail: { usable: 2 } });
  });
});
