import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeDeepl,
  startFakeGoogle,
  startFakeLibreTranslate,
  startFakeMicrosoft,
  startFakeOpenAi,
  type FakeServer,
} from '../../engines/translation/testing/fake-servers.ts';
import { LINES_INSTRUCTION } from '../../engines/translation/llm-segments.ts';
import { registerUser, startTestApp, type TestApp } from '../../../test/helpers.ts';
import { writeReadyBook } from '../../../test/seed-book.ts';

/** The Harry Hughes ballad of Ulysses (episode XVII), as Standard Ebooks sets it: one block, six lines. */
const BALLAD = [
  'Little Harry Hughes and his schoolfellows all',
  'Went out for to play ball.',
  'And the very first ball little Harry Hughes played',
  'He drove it o’er the jew’s garden wall.',
  'And the very second ball little Harry Hughes played',
  'He broke the jew’s windows all.',
];

/** What each fake service prefixes a translation into Chinese with. */
const PREFIX: Record<string, string> = {
  microsoft: '[zh-Hans] ',
  google: '[zh-CN] ',
  deepl: '[ZH-HANS] ',
  libretranslate: '[zh] ',
  llm: '[Simplified Chinese] ',
};

describe('verse is translated line by line, by every engine', () => {
  let t: TestApp;
  const fakes: Record<string, FakeServer> = {};
  let reader: string;

  beforeAll(async () => {
    fakes.microsoft = await startFakeMicrosoft();
    fakes.google = await startFakeGoogle();
    fakes.deepl = await startFakeDeepl({ key: 'verse-key:fx' });
    fakes.libretranslate = await startFakeLibreTranslate();
    fakes.llm = await startFakeOpenAi();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      TRANSLATION_ENGINES: 'microsoft,google,deepl,llm,libretranslate',
      MICROSOFT_TRANSLATOR_ENDPOINT: fakes.microsoft.url,
      GOOGLE_TRANSLATE_ENDPOINT: fakes.google.url,
      DEEPL_API_KEY: 'verse-key:fx',
      DEEPL_ENDPOINT: fakes.deepl.url,
      LIBRETRANSLATE_URL: fakes.libretranslate.url,
      LLM_BASE_URL: fakes.llm.url,
      LLM_MODEL: 'fake-model',
    });
    reader = await registerUser(t, 'verse');
  });
  afterAll(async () => {
    await t?.close();
    for (const fake of Object.values(fakes)) await fake.close();
  });

  for (const engine of ['microsoft', 'google', 'deepl', 'libretranslate', 'llm']) {
    it(`${engine}: each line one segment, as many lines back, markup kept on its line`, async () => {
      const fake = fakes[engine]!;
      fake.resetStats();
      // Each engine its own text: the translation memory is shared by all of them.
      const lines = BALLAD.map((line) => `${line} (${engine})`);
      lines[1] = `<em>${lines[1]}</em>`;
      const [result] = await t.running.services.translation.translate([lines.join('\n')], 'en', 'zh', {
        preferred: engine,
      });
      expect(result!.engine).toBe(engine);
      const translated = result!.translation.split('\n');
      expect(translated).toHaveLength(BALLAD.length);
      translated.forEach((line, i) => {
        expect(line.replace(/<\/?em>/g, '')).toBe(`${PREFIX[engine]}${BALLAD[i]} (${engine})`);
      });
      expect(translated[1]).toMatch(/ <em>[^<]*<\/em>$/);
      // No segment the service received holds a line break.
      const messages = (c: (typeof fake.calls)[number]) => (c.json as { messages: { content: string }[] }).messages;
      const sent =
        engine === 'llm'
          ? fake.calls.flatMap((c) =>
              messages(c)[1]!
                .content.split(/\n?\[\[\d+\]\] /)
                .filter(Boolean),
            )
          : fake.calls.map((c) => c.body);
      expect(sent.length).toBeGreaterThan(0);
      expect(sent.filter((s) => s.includes('\n') || s.includes('\\n'))).toEqual([]);
      if (engine === 'llm') expect(messages(fake.calls.at(-1)!)[0]!.content).toContain(LINES_INSTRUCTION);
    });
  }

  it('through the reader: a verse paragraph arrives with its lines, kept apart from prose in the memory', async () => {
    const code = await writeReadyBook(t, 'verse', {
      title: 'Ulysses',
      author: 'James Joyce',
      language: 'en',
      chapterTitle: 'XVII',
      blocks: [
        { text: 'Recite the first (major) part of this chanted legend?', page: 1 },
        { text: BALLAD.slice(0, 2).join('\n'), page: 1 },
        // The same words as prose: a memory entry of its own.
        { text: BALLAD.slice(0, 2).join(' '), page: 1 },
      ],
    });
    await t.call('POST', '/api/user/updateUserinfo', { token: reader, body: { translationEngine: 'microsoft' } });
    let blocks: { text: string; translation: string | null; status: string }[] = [];
    for (let i = 0; i < 200; i++) {
      const page = await t.call('GET', `/api/reader/getPageData?bookCode=${code}&language=zh&page=1`, {
        token: reader,
      });
      blocks = page.data.blocks;
      if (blocks.every((b) => b.status === 'done')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(blocks[1]!.text).toBe(`${BALLAD[0]}\n${BALLAD[1]}`);
    expect(blocks[1]!.translation).toBe(`[zh-Hans] ${BALLAD[0]}\n[zh-Hans] ${BALLAD[1]}`);
    expect(blocks[2]!.translation).toBe(`[zh-Hans] ${BALLAD[0]} ${BALLAD[1]}`);
  });
});
