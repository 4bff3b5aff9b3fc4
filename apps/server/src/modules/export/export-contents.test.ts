/**
 * Books with contents at every depth, through the real pipeline and HTTP: uploaded, their contents
 * stored and answered by the book's detail as the parser found them, read in full, and exported as a
 * bilingual EPUB that epubcheck accepts, whose nav and NCX (read by an independent walk) list every
 * entry at its depth, labelled with its title and leading to its block.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedTitleText, type ContentsEntry } from '@yidu/shared/contents';
import { parseBook } from '../../engines/parsers/registry.ts';
import {
  glavaText,
  headingsDocx,
  huiText,
  nestedNavEpub,
  nestedNcxEpub,
  ulyssesEpub,
} from '../../engines/parsers/testing/contents-books.ts';
import { declaredContents, textAt, xmlTree } from '../../engines/parsers/testing/declared-contents.ts';
import { startFakeMicrosoft, type FakeMicrosoft } from '../../engines/translation/testing/fake-servers.ts';
import { CORPUS, registerUser, startTestApp, type TestApp } from '../../../test/helpers.ts';
import { epubcheck, problems } from '../../../test/epubcheck.ts';
import { exportBook, readEveryPage, storedTexts, uploadBytes } from '../../../test/export-helpers.ts';

/** Every navPoint of an NCX: its id, playOrder and target. */
function navPoints(ncx: string): { id: string; order: number; src: string }[] {
  const out: { id: string; order: number; src: string }[] = [];
  const walk = (node: ReturnType<typeof xmlTree>) => {
    for (const child of node.children) {
      if (typeof child === 'string') continue;
      if (child.name === 'navpoint') {
        const content = child.children.find((c) => typeof c !== 'string' && c.name === 'content');
        out.push({
          id: child.attrs.id!,
          order: Number(child.attrs.playorder),
          src: typeof content === 'string' ? '' : (content?.attrs.src ?? ''),
        });
      }
      walk(child);
    }
  };
  walk(xmlTree(ncx));
  return out;
}

const noSpace = (text: string) => text.replace(/\s+/g, '');

describe('exported contents at every depth', () => {
  let t: TestApp;
  let fake: FakeMicrosoft;
  let alice: string;
  beforeAll(async () => {
    fake = await startFakeMicrosoft();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      MICROSOFT_TRANSLATOR_ENDPOINT: fake.url,
      STARTING_POINTS: '1000000',
      RATE_LIMIT_PER_MINUTE: '100000',
    });
    alice = await registerUser(t, 'alice');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const cases: { name: string; data: () => Promise<Buffer>; target: string }[] = [
    { name: 'Ulysses.epub', data: ulyssesEpub, target: 'zh' },
    { name: 'nested-nav.epub', data: nestedNavEpub, target: 'zh' },
    { name: 'nested-ncx.epub', data: nestedNcxEpub, target: 'zh' },
    {
      name: 'childrens-literature.epub',
      data: () => readFile(path.join(CORPUS, '../wild/epub/en-childrens-literature-epub3-long.epub')),
      target: 'zh',
    },
    { name: 'handbook.docx', data: async () => headingsDocx(), target: 'zh' },
    { name: '红楼梦.txt', data: async () => Buffer.from(huiText()), target: 'en' },
    { name: 'роман.txt', data: async () => Buffer.from(glavaText(2, 3)), target: 'zh' },
    {
      // No headings at all: parts with generated titles, said in the reading language.
      name: 'parts.txt',
      data: async () =>
        Buffer.from(
          Array.from({ length: 170 }, (_, i) => `This is paragraph number ${i}, with a few more words.`).join('\n\n'),
        ),
      target: 'zh',
    },
  ];

  for (const book of cases) {
    it(`${book.name}: the stored contents are the parser's, and the bilingual EPUB lists them all, valid for epubcheck`, async () => {
      const data = await book.data();
      const parsed = await parseBook(data);
      const code = await uploadBytes(t, alice, book.name, data, 0);

      // The detail answers the contents as parsed: titles (or markers), depths, blocks.
      const detail = await t.call('GET', `/api/book/user/getBookByCode?bookCode=${code}`, { token: alice });
      const contents: ContentsEntry[] = detail.data.contents;
      expect(contents.map((e) => [e.title, e.generated, e.level, e.blockId])).toEqual(
        parsed.contents.map((e) => [e.title, e.generated ?? null, e.level, e.blockId]),
      );
      expect(contents.some((e) => /^Part \d/.test(e.title))).toBe(false);

      await readEveryPage(t, alice, code, book.target);
      const res = await exportBook(t, alice, `bookCode=${code}&language=${book.target}&mode=bilingual`);
      expect(res.status).toBe(200);
      expect(problems(await epubcheck(res.body))).toEqual([]);

      const zip = await JSZip.loadAsync(res.body);
      // The NCX: an id of its own per navPoint, playOrder from 1 with no gaps, one per place.
      const points = navPoints(await zip.file('OEBPS/toc.ncx')!.async('string'));
      expect(points).toHaveLength(contents.length);
      expect(new Set(points.map((p) => p.id)).size).toBe(points.length);
      const orders = [...new Set(points.map((p) => p.order))].sort((a, b) => a - b);
      expect(orders).toEqual(orders.map((_o, i) => i + 1));
      for (const a of points) for (const b of points) expect(a.src === b.src).toBe(a.order === b.order);

      // The nav, read on its own: every entry at its depth, labelled with its title (and the
      // translation of its heading), leading to the block the entry leads to.
      const exported = await declaredContents(zip);
      expect(exported.map((e) => e.level)).toEqual(contents.map((e) => e.level));
      const texts = new Map((await storedTexts(t, code, book.target)).map((b) => [b.block_id, b.text]));
      const wrong: string[] = [];
      for (const [i, entry] of contents.entries()) {
        const nav = exported[i]!;
        const label = entry.generated ? generatedTitleText(entry.generated, book.target) : entry.title;
        if (!nav.title.startsWith(label)) wrong.push(`${i}: "${nav.title}" for "${label}"`);
        const there = noSpace((await textAt(zip, nav.path, nav.fragment)) ?? '');
        const block = noSpace(texts.get(entry.blockId) ?? '');
        if (!there.startsWith(block.slice(0, 12))) wrong.push(`${i}: ${entry.title} leads to "${there.slice(0, 30)}"`);
      }
      expect(wrong).toEqual([]);
      if (book.name === 'parts.txt')
        expect(exported.map((e) => e.title)).toEqual(['第 1 部分', '第 2 部分', '第 3 部分']);
    }, 240_000);
  }
});
