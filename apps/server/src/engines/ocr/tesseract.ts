/**
 * tesseract.js engine. Trained data comes from the @tesseract.js-data packages on disk: nothing is
 * downloaded at run time. One worker per language set is kept and reused (start-up costs ~0.5 s).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createWorker } from 'tesseract.js';
import type Tesseract from 'tesseract.js';
import { ParseError } from '../parsers/errors.ts';
import { installFolder, MissingLanguageData, prepareLangFolder } from './lang-data.ts';
import { hasOcrLanguage, TESSERACT_LANGUAGES } from './languages.ts';

export { hasOcrLanguage, TESSERACT_LANGUAGES };
import type { OcrEngine, OcrLine, OcrResult } from './types.ts';

/** The folder of traineddata links for `langs` under `folder` (see lang-data.ts). */
function prepareLangPath(langs: string[], folder: string): string {
  try {
    return prepareLangFolder(langs, path.join(folder, 'lang'));
  } catch (error) {
    if (error instanceof MissingLanguageData) throw new ParseError('ocrUnavailable', error.message);
    throw error;
  }
}

const HAN_GAP =
  /([\u3000-\u30ff\u31f0-\u31ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]) +(?=[\u3000-\u30ff\u31f0-\u31ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef])/g;

/** Chinese and Japanese models put spaces between Han/Kana characters; remove them. */
export function removeHanSpaces(text: string): string {
  return text.replace(HAN_GAP, '$1');
}

const MIN_WORD_CONFIDENCE = 50;
const CJK_WORD = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]/;
const MIN_LINE_CONFIDENCE = 55;

/**
 * Illustrations next to text produce junk "words" on the same lines. Trim low-confidence words from both
 * ends of a line and drop lines that are mostly junk.
 */
export function cleanLine(words: { text: string; confidence: number }[]): string {
  let start = 0;
  let end = words.length;
  // CJK punctuation (、。「」（）…) and the kana prolonged-sound mark belong to words too.
  const wordlike = (w: { text: string }) =>
    /^[("“‘'\u3000-\u303f\uff00-\uff0f]*[\p{L}\p{N}][\p{L}\p{N}\p{M}'’.,;:!?—\-\u3000-\u303f\u30fb\u30fc\uff00-\uffef]*[)"”’]?$/u.test(
      w.text,
    );
  const weak = (w: { text: string; confidence: number }) => w.confidence < MIN_WORD_CONFIDENCE || !wordlike(w);
  // Cut a junk cluster (a symbol, or two weak words in a row) in the first part of the line.
  for (let i = Math.floor(words.length * 0.6); i >= 0; i--) {
    const w = words[i];
    if (w && (!wordlike(w) || (i > 0 && weak(w) && weak(words[i - 1]!)))) {
      start = i + 1;
      break;
    }
  }
  // A lone weak CJK word at an edge is kept: CJK models often give a correct first word a low score
  // (繁體:13 before 中:95); junk comes in clusters or as symbols.
  const trimmable = (i: number, step: number) => {
    const w = words[i]!;
    if (!weak(w)) return false;
    // Latin junk beside pictures is often word-shaped ("Il", "itt"): only CJK words get the benefit.
    if (!wordlike(w) || w.confidence < 10 || !CJK_WORD.test(w.text)) return true;
    const next = words[i + step];
    return next === undefined || weak(next);
  };
  while (start < end && trimmable(start, 1)) start++;
  while (end > start && trimmable(end - 1, -1)) end--;
  const kept = words.slice(start, end);
  if (!kept.length) return '';
  const mean = kept.reduce((s, w) => s + w.confidence, 0) / kept.length;
  if (mean < MIN_LINE_CONFIDENCE) return '';
  if (!kept.some((w) => w.confidence >= 60 && /[\p{L}\p{N}]/u.test(w.text))) return '';
  return removeHanSpaces(kept.map((w) => w.text).join(' '));
}

export class TesseractEngine implements OcrEngine {
  readonly name = 'tesseract';
  readonly languages = Object.keys(TESSERACT_LANGUAGES).filter(hasOcrLanguage);
  private workers = new Map<string, Promise<Tesseract.Worker>>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Where the language data links and tesseract's cache live: this install's folder unless a test says. */
  private readonly folder: string;

  constructor(options: { folder?: string } = {}) {
    this.folder = options.folder ?? installFolder();
  }

  private worker(langs: string[]): Promise<Tesseract.Worker> {
    const key = langs.join('+');
    let worker = this.workers.get(key);
    if (!worker) {
      const langPath = prepareLangPath(langs, this.folder);
      const cachePath = path.join(this.folder, 'cache');
      mkdirSync(cachePath, { recursive: true });
      worker = createWorker(langs, 1, { langPath, cachePath, gzip: true, cacheMethod: 'none' });
      this.workers.set(key, worker);
      worker.catch(() => this.workers.delete(key));
    }
    return worker;
  }

  async recognize(png: Buffer, languages: string[]): Promise<OcrResult> {
    const wanted = languages.length ? languages : ['en'];
    const missing = wanted.filter((l) => !hasOcrLanguage(l));
    if (missing.length) {
      throw new ParseError('ocrUnavailable', `No OCR model for ${missing.join(', ')}`);
    }
    const langs = [...new Set(wanted.map((l) => TESSERACT_LANGUAGES[l]!))];
    // One recognition at a time per engine: tesseract workers are single-threaded anyway.
    const run = this.queue.then(async () => {
      const worker = await this.worker(langs);
      const { data } = await worker.recognize(png, {}, { text: true, blocks: true });
      return data;
    });
    this.queue = run.catch(() => undefined);
    const data = await run;
    const lines: OcrLine[] = [];
    const paragraphs: string[] = [];
    for (const block of data.blocks ?? []) {
      for (const para of block.paragraphs) {
        const paraLines: string[] = [];
        for (const line of para.lines) {
          const text = cleanLine(line.words);
          if (!text) continue;
          paraLines.push(text);
          lines.push({ text, confidence: line.confidence, bbox: line.bbox });
        }
        if (paraLines.length) paragraphs.push(paraLines.join('\n'));
      }
    }
    const text = paragraphs.length ? paragraphs.join('\n\n') : removeHanSpaces(data.text ?? '');
    return { text, confidence: data.confidence ?? 0, lines };
  }

  async dispose(): Promise<void> {
    const workers = [...this.workers.values()];
    this.workers.clear();
    await Promise.all(workers.map(async (w) => (await w.catch(() => undefined))?.terminate()));
  }
}

let shared: TesseractEngine | undefined;

/** The process-wide engine; call disposeSharedOcrEngine() at shutdown. */
export function getSharedOcrEngine(): TesseractEngine {
  shared ??= new TesseractEngine();
  return shared;
}

export async function disposeSharedOcrEngine(): Promise<void> {
  const engine = shared;
  shared = undefined;
  await engine?.dispose();
}
