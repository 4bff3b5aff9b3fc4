/**
 * Detects a book's language as one of the 26 reading-language codes (packages/shared languages.ts).
 *
 * - Text is sampled in windows spread over the whole body, so a Gutenberg licence or an English
 *   front matter does not decide the language of a Chinese book.
 * - Han/Kana/Hangul are counted by script first: tinyld is weak on mixed CJK/Latin text (Chinese
 *   technical books are full of English commands). One CJK character carries about as much as one
 *   Latin word, so a text with ≥ 30% CJK units among all units is a CJK book. Kana → jp, Hangul → ko.
 * - Simplified vs Traditional Chinese: opencc-js converts both ways; the direction that changes more
 *   characters tells which script the text is in.
 * - Everything else goes to tinyld, voting over the windows.
 * - When nothing is reliable (empty text, too little text, unsupported language) the answer is 'en'
 *   with `reliable: false`: English is the most common source language of uploaded books and the
 *   pipeline needs *a* language to continue; the user can change it.
 */
import { LANGUAGE_CODES } from '@yidu/shared';
import type { LanguageCode } from '@yidu/shared';
import * as OpenCC from 'opencc-js';
import { detectAll } from 'tinyld';

export interface LanguageDetection {
  /** The reading language to use: the detected one when it is among the 26, else the fallback. */
  code: LanguageCode;
  /**
   * What the text is written in, as an ISO 639-1 code (ours for the 26: 'jp', 'zh-TW'), whether or
   * not it is a reading language ('he', 'la'...); 'und' when nothing could be told.
   */
  detected: string;
  /** 0..1: the share of evidence for the winner. */
  confidence: number;
  /** False when the result is the fallback or the evidence is thin. */
  reliable: boolean;
  /** Per-language scores (0..1), best first; for logs and debugging. */
  scores: { code: string; score: number }[];
}

export const FALLBACK_LANGUAGE: LanguageCode = 'en';

const SUPPORTED = new Set<string>(LANGUAGE_CODES);
/** tinyld's ISO 639-1 codes that differ from ours. */
const TINYLD_TO_CODE: Record<string, LanguageCode> = { ja: 'jp' };

const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/g;
const KANA = /[\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff]/g;
const HANGUL = /[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]/g;
const WORD = /[\p{L}\p{M}]+/gu;

let toSimplified: ((text: string) => string) | undefined;
let toTraditional: ((text: string) => string) | undefined;

function count(text: string, re: RegExp): number {
  return text.match(re)?.length ?? 0;
}

/**
 * Takes `windows` slices of about `size` characters spread evenly over the text (skipping the first
 * few percent, where licences and title pages live, when the text is long enough).
 */
export function sampleText(text: string, windows = 16, size = 800): string[] {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= windows * size) return clean ? [clean] : [];
  const start = clean.length > windows * size * 4 ? Math.floor(clean.length * 0.05) : 0;
  const span = clean.length - start - size;
  const out: string[] = [];
  for (let i = 0; i < windows; i++) {
    const at = start + Math.floor((span * i) / Math.max(1, windows - 1));
    out.push(clean.slice(at, at + size));
  }
  return out;
}

function chineseVariant(text: string): { code: 'zh' | 'zh-TW'; confidence: number } {
  const simplify = (toSimplified ??= OpenCC.Converter({ from: 'tw', to: 'cn' }));
  const traditionalize = (toTraditional ??= OpenCC.Converter({ from: 'cn', to: 'tw' }));
  const han = text.match(HAN)?.join('') ?? '';
  const sample = han.slice(0, 20000);
  const diff = (a: string, b: string) => {
    let n = 0;
    for (let i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) n++;
    return n;
  };
  const traditionalChars = diff(sample, simplify(sample));
  const simplifiedChars = diff(sample, traditionalize(sample));
  const total = traditionalChars + simplifiedChars;
  if (traditionalChars > simplifiedChars * 1.5 && traditionalChars >= 3) {
    return { code: 'zh-TW', confidence: total ? traditionalChars / total : 0.5 };
  }
  return { code: 'zh', confidence: total ? Math.max(0.5, simplifiedChars / total) : 0.5 };
}

function fallback(scores: LanguageDetection['scores'] = []): LanguageDetection {
  return { code: FALLBACK_LANGUAGE, detected: 'und', confidence: 0, reliable: false, scores };
}

/** Detects the language of a text, or of samples taken from a text. Null-safe. */
export function detectLanguage(input: string | readonly string[] | null | undefined): LanguageDetection {
  if (input === null || input === undefined) return fallback();
  const samples = typeof input === 'string' ? sampleText(input) : input.map((s) => s ?? '').filter(Boolean);
  const joined = samples.join('\n');
  if (!joined.trim()) return fallback();

  // 1. Scripts.
  const han = count(joined, HAN);
  const kana = count(joined, KANA);
  const hangul = count(joined, HANGUL);
  const cjk = han + kana + hangul;
  const words = (joined.replace(HAN, ' ').replace(KANA, ' ').replace(HANGUL, ' ').match(WORD) ?? []).length;
  if (cjk >= 2 && cjk / (cjk + words) >= 0.3) {
    const reliable = cjk >= 20;
    if (kana >= (han + kana) * 0.08 && kana >= 2) {
      const confidence = Math.min(1, kana / Math.max(1, (han + kana) * 0.3));
      return { code: 'jp', detected: 'jp', confidence, reliable, scores: [{ code: 'jp', score: confidence }] };
    }
    if (hangul >= cjk * 0.3) {
      const confidence = hangul / cjk;
      return { code: 'ko', detected: 'ko', confidence, reliable, scores: [{ code: 'ko', score: confidence }] };
    }
    const variant = chineseVariant(joined);
    return {
      ...variant,
      detected: variant.code,
      reliable,
      scores: [{ code: variant.code, score: variant.confidence }],
    };
  }

  // 2. tinyld, voting over the samples weighted by their length.
  const totals = new Map<string, number>();
  let weightSum = 0;
  for (const sample of samples) {
    const text = sample.replace(HAN, ' ').trim();
    if (text.length < 3) continue;
    const weight = Math.min(text.length, 1000);
    weightSum += weight;
    for (const { lang, accuracy } of detectAll(text)) {
      const code = TINYLD_TO_CODE[lang] ?? lang;
      totals.set(code, (totals.get(code) ?? 0) + accuracy * weight);
    }
  }
  if (!weightSum) return fallback();
  const scores = [...totals.entries()]
    .map(([code, score]) => ({ code, score: score / weightSum }))
    .sort((a, b) => b.score - a.score);
  const top = scores[0]!;
  const best = scores.find((s) => SUPPORTED.has(s.code));
  if (!best) return { ...fallback(scores), detected: top?.code ?? 'und' };
  const reliable = best === top && best.score >= 0.3 && joined.length >= 20;
  return {
    code: best.code as LanguageCode,
    detected: top.code,
    confidence: Math.min(1, best.score),
    reliable,
    scores: scores.slice(0, 5),
  };
}

/** Detects the language of a parsed book from its body text (headings, paragraphs, quotes, lists). */
export function detectBookLanguage(book: {
  chapters: { blocks: { type: string; text: string }[] }[];
}): LanguageDetection {
  const texts: string[] = [];
  const starts: number[] = [];
  let total = 0;
  for (const c of book.chapters)
    for (const b of c.blocks) {
      if (b.type === 'code' || b.type === 'table' || !b.text) continue;
      texts.push(b.text);
      starts.push(total);
      total += b.text.length + 1;
    }
  const windows = 16;
  const size = 800;
  if (total <= windows * size * 4) return detectLanguage(texts.join('\n'));
  // A long book: take sampleText's windows straight from the blocks. Joining and cleaning the whole
  // text first costs twice its size in memory (~700 MB for a 30 MB DOCX) for 13 KB of samples.
  const start = Math.floor(total * 0.05);
  const span = total - start - size * 2;
  const samples: string[] = [];
  for (let i = 0; i < windows; i++) {
    const at = start + Math.floor((span * i) / (windows - 1));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    let piece = texts[lo]!.slice(at - starts[lo]!);
    for (let k = lo + 1; k < texts.length && piece.length < size * 2; k++) piece += '\n' + texts[k];
    const clean = piece.replace(/\s+/g, ' ').trim().slice(0, size);
    if (clean) samples.push(clean);
  }
  return detectLanguage(samples);
}
