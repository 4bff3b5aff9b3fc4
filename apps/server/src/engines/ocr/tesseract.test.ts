import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { ParseError } from '../parsers/errors.ts';
import { pdfParser } from '../parsers/pdf/pdf.ts';
import { cleanLine, hasOcrLanguage, removeHanSpaces, TesseractEngine } from './tesseract.ts';

/** Black CJK text on white, large enough for tesseract (WenQuanYi Micro Hei is a system font here). */
function renderLines(lines: string[]): Buffer {
  const canvas = createCanvas(480, 40 + lines.length * 64);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#000';
  ctx.font = '44px "WenQuanYi Micro Hei"';
  lines.forEach((line, i) => ctx.fillText(line, 24, 66 + i * 64));
  return canvas.toBuffer('image/png');
}

const CORPUS = process.env.YIDU_CORPUS_DIR || path.resolve(import.meta.dirname, '../../../../..', '../shared/corpus');

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

  it('keeps a correct but low-scored first word of a CJK line', () => {
    const w = (text: string, confidence: number) => ({ text, confidence });
    expect(cleanLine([w('繁體', 13), w('中', 95), w('文', 96), w('的', 96), w('測試。', 95)])).toBe('繁體中文的測試。');
  });

  it('reads Japanese and Traditional Chinese with the installed models', async () => {
    // Links left dangling in the language folder by a deleted checkout must not break OCR.
    const folder = mkdtempSync(path.join(os.tmpdir(), 'yidu-ocr-test-'));
    mkdirSync(path.join(folder, 'lang'));
    for (const lang of ['jpn', 'chi_tra'])
      symlinkSync(`/nonexistent/checkout/${lang}.traineddata.gz`, path.join(folder, 'lang', `${lang}.traineddata.gz`));
    const fresh = new TesseractEngine({ folder });
    onTestFinished(async () => {
      await fresh.dispose();
      rmSync(folder, { recursive: true, force: true });
    });
    expect(fresh.languages).toEqual(expect.arrayContaining(['en', 'zh', 'zh-TW', 'jp']));
    expect(hasOcrLanguage('jp') && hasOcrLanguage('zh-TW')).toBe(true);
    const jp = await fresh.recognize(renderLines(['吾輩は猫である。', '名前はまだ無い。']), ['jp']);
    expect(jp.text).toContain('は猫である');
    expect(jp.text).toContain('名前はまだ無い');
    const tw = await fresh.recognize(renderLines(['繁體中文的測試。', '臺灣圖書館與學習']), ['zh-TW']);
    expect(tw.text).toContain('繁體中文的測試');
    expect(tw.text).toContain('臺灣圖書館與學習');
  });

  it('refuses languages without a model', async () => {
    for (const languages of [['ar'], ['en', 'ko']]) {
      const error = await engine.recognize(Buffer.alloc(10), languages).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ParseError);
      expect((error as ParseError).key).toBe('ocrUnavailable');
    }
    expect(hasOcrLanguage('ko')).toBe(false);
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
