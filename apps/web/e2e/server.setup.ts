import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startFakeMicrosoft, startFakeOpenAi } from '../../server/src/engines/translation/testing/fake-servers.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
export const ADMIN = { account: 'e2e-admin', password: 'E2eAdmin2026' };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** The test LLM as a learner's dictionary: a JSON entry for the word, in the reader's language (Chinese or English). */
function dictionaryEntry(system: string, user: string): string {
  const word = /Word: (.*)/.exec(user)?.[1] ?? '';
  const chinese = /the reader reads Chinese/.test(system);
  return JSON.stringify(
    chinese
      ? {
          lemma: '',
          meaning: `（测试词典）“${word}”在这句话里的意思：推断、察觉`,
          pronunciation: `/${word.toLowerCase()}/`,
          partOfSpeech: '动词',
          usage: `I could ${word.toLowerCase()} nothing from his face.`,
          usageTranslation: '从他的脸上我什么也看不出来。',
          alternatives: ['推论', '演绎'],
        }
      : {
          lemma: '',
          meaning: `(test dictionary) what “${word}” means in this sentence: to work out, to notice`,
          pronunciation: `/${word.toLowerCase()}/`,
          partOfSpeech: 'verb',
          usage: `I could ${word.toLowerCase()} nothing from his face.`,
          usageTranslation: 'Nothing could be read from his face.',
          alternatives: ['to infer', 'to deduce'],
        },
  );
}

/** Starts Yidu exactly as `npm start` does (after the build), on free ports and a fresh data directory. */
export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'yidu-e2e-'));
  // Translation is the one service outside the machine: a local server speaking Microsoft's protocol.
  const translator = await startFakeMicrosoft();
  translator.setBehaviour({ latencyMs: 120, perItemLatencyMs: 20 }); // TRANSLATOR_NORMAL of fixtures.ts
  // So is the LLM behind the AI aids: a local server speaking the OpenAI chat protocol, streaming.
  const llm = await startFakeOpenAi();
  llm.setBehaviour({
    latencyMs: 80,
    chunkDelayMs: 15,
    // Readable answers for the AI cards; translations and JSON tasks keep the protocol's default echo.
    reply: ({ messages }) => {
      const system = messages.find((m) => m.role === 'system')?.content ?? '';
      if (system.includes("learner's dictionary")) return dictionaryEntry(system, messages[1]?.content ?? '');
      return /explain/i.test(system) && !/json/i.test(system)
        ? 'This passage introduces the scene and its speaker. (AI explanation from the test LLM)'
        : undefined;
    },
  });
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(process.execPath, ['apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await freePort()),
      ADMIN_ACCOUNT: ADMIN.account,
      ADMIN_PASSWORD: ADMIN.password,
      MICROSOFT_TRANSLATOR_ENDPOINT: translator.url,
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'fake-chat',
      LOG_LEVEL: 'warn',
      // Every journey's readers upload from 127.0.0.1: one IP address, many users, more than 20 books.
      UPLOADS_PER_DAY: '1000',
      UPLOADS_PER_MONTH: '10000',
      // The journeys' public libraries hold their own books; firstShelf.e2e.ts starts a fresh Yidu with it.
      FIRST_SHELF: 'false',
      // Most of a paper's figures are made after the book is saved, as a long book's are: the journeys
      // see pictures arrive in the reader (pdf-figures.e2e.ts).
      PDF_CROPS_IN_PARSE: '4',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) break;
    } catch {
      // not up yet
    }
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    if (Date.now() > deadline) {
      // Not left running (with its database) when the run gives up on it.
      server.kill('SIGTERM');
      throw new Error('the server did not start within 60 s');
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  project.provide('baseUrl', baseUrl);
  project.provide('dataDir', dataDir);
  project.provide('admin', ADMIN);
  // The journeys run in other processes: they take the translator down, slow it or bring it back by HTTP.
  project.provide('translatorControl', translator.controlUrl);
  project.provide('translatorUrl', translator.url);

  return async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await translator.close();
    await llm.close();
    await rm(dataDir, { recursive: true, force: true });
  };
}
