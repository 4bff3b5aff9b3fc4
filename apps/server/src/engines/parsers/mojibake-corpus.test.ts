/**
 * The mojibake detector (mojibake.ts) on every real document of ../shared/corpus and ../shared/wild:
 * French, German, Spanish, Latin, Czech, Hungarian, Estonian… with their accents, and every other
 * script. Nothing in them is text of another code page read as Latin-1, so nothing may be repaired:
 * not by the PDF reader's per-page check (run on every page's text layer), not by the text and Word
 * readers, and the detector finds nothing in the text of the formats that do not call it either.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ParseError } from './errors.ts';
import { detectMojibake } from './mojibake.ts';
import { openPdf, PageReader } from './pdf/pdf-text.ts';
import { parseBook } from './registry.ts';

const CORPUS = process.env.YIDU_CORPUS_DIR || path.resolve(import.meta.dirname, '../../../../..', '../shared/corpus');
const WILD = path.join(CORPUS, '../wild');

function documents(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !/MANIFEST|SHA256SUMS|\.ref\.txt$/.test(e.name) && !e.parentPath.endsWith('bad'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/** Pages of the text layer the PDF reader put in another code page, by page number. */
async function repairedPdfPages(input: Buffer): Promise<Record<number, string>> {
  const doc = await openPdf(input).catch((error: unknown) => {
    if (error instanceof ParseError) return undefined;
    throw error;
  });
  if (!doc) return {};
  const repaired: Record<number, string> = {};
  try {
    const reader = new PageReader(doc);
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await reader.read(n);
      if (page.mojibake) repaired[n] = page.mojibake;
    }
  } finally {
    await doc.destroy();
  }
  return repaired;
}

/** Pieces of about a page: the size the PDF reader judges at. */
function pieces(text: string, size = 3000): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

const FILES = [...documents(CORPUS), ...documents(WILD)];

describe.skipIf(!FILES.length)('no real document is taken for mojibake', () => {
  for (const file of FILES) {
    const name = path.relative(path.dirname(CORPUS), file);
    it(name, { timeout: 120_000 }, async () => {
      const input = readFileSync(file);
      if (file.endsWith('.pdf')) {
        expect(await repairedPdfPages(input)).toEqual({});
        return;
      }
      const book = await parseBook(input).catch((error: unknown) => {
        if (error instanceof ParseError) return undefined;
        throw error;
      });
      if (!book) return;
      expect(book.warnings.filter((w) => /^Read the text/.test(w))).toEqual([]);
      for (const chapter of book.chapters) {
        const text = chapter.blocks.map((b) => b.text).join('\n');
        for (const piece of pieces(text)) expect(detectMojibake(piece), piece.slice(0, 200)).toBeUndefined();
      }
    });
  }
});
