import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ParseError } from '../parsers/errors.ts';
import { pdfParser } from '../parsers/pdf.ts';
import { cleanLine, removeHanSpaces, TesseractEngine } from './tesseract.ts';

const CORPUS = path.resolve(import.meta.dirname, '../../../../..', '../shared/corpus');

describe('tesseract OCR', () => {
  const engine = new TesseractEngine();
  afterAll(() => engine.dispose());

  it('removes spaces between Han characters only', () => {
    expect(removeHanSpaces('这 是 一 个 测 试 , and English words 中 文')).toBe(
      '这是一个测试 , and English words 中文',
    );
  });

  it('drops junk words from illustrations at line starts', () => {
    const w = (text: string, confidence: number) => ({ text, confidence });
    expect(cleanLine([w('i', 28), w('oA', 0), w('eg', 18), w('We', 63), w('went', 83), w('along', 96)])).toBe(
      'We went along',
    );
    expect(cleanLine([w('Ly,', 4), w('HAR', 38), w('RANI', 0)])).toBe('');
    expect(
      cleanLine([w('the', 95), w('branches', 85), w('wouldnt', 31), w('scrape', 95), w('our', 96), w('heads.', 95)]),
    ).toBe('the branches wouldnt scrape our heads.');
  });

  it('refuses languages without a model', async () => {
    const error = await engine.recognize(Buffer.alloc(10), ['ar']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).key).toBe('ocrUnavailable');
  });

  it.skipIf(!existsSync(CORPUS))('reads the scanned Huckleberry Finn page', async () => {
    const input = readFileSync(path.join(CORPUS, 'pdf/en-scanned-huckfinn-page-image-only.pdf'));
    const progress: number[] = [];
    const book = await pdfParser.parse(input, { ocrEngine: engine, onProgress: (f) => progress.push(f) });
    const text = book.chapters.flatMap((c) => c.blocks.map((b) => b.text)).join('\n');
    for (const word of ['went tip-toeing along a path', 'kitchen', 'listened', 'scratch', 'funeral']) {
      expect(text).toContain(word);
    }
    expect(book.stats.ocrPages).toBe(1);
    expect(progress.at(-1)).toBe(1);
  });

  it.skipIf(!existsSync(CORPUS))('forceOCR reads a page that has a text layer, in Chinese too', async () => {
    const input = readFileSync(path.join(CORPUS, 'pdf/en-encrypted-owner-password-only.pdf'));
    const book = await pdfParser.parse(input, { ocrEngine: engine, forceOCR: true, ocrLanguages: ['en', 'zh'] });
    expect(book.stats.ocrPages).toBe(1);
    expect(book.chapters.flatMap((c) => c.blocks.map((b) => b.text)).join(' ')).toMatch(/Sleep/);
  });
});
