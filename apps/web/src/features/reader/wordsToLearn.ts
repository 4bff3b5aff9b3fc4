import type { PageBlock } from '@yidu/shared/reader';
import { SIDE_ATTR, TEXT_ATTR, type SelectionAnchor } from './selection.ts';

/**
 * The pure parts of looking words up, reading aloud and counting reading time: the sentence a
 * selection stands in, what is read aloud in which order, and when a heartbeat is due.
 */

const SENTENCE_END = /[.!?。！？；;…\n]/;
/** A sentence longer than this is cut to a window around the word. */
const MAX_SENTENCE = 400;

/** The sentence around [start, end) of a text: from after the previous sentence end to the next one. */
export function sentenceAround(text: string, start: number, end: number): string {
  let from = start;
  while (from > 0 && !SENTENCE_END.test(text[from - 1]!)) from--;
  let to = Math.max(end, start);
  while (to < text.length && !SENTENCE_END.test(text[to]!)) to++;
  if (to < text.length) to++; // keep the closing mark
  while (to < text.length && /["'”’」』）)]/.test(text[to]!)) to++;
  let sentence = text.slice(from, to);
  if (sentence.length > MAX_SENTENCE) {
    const half = Math.floor(MAX_SENTENCE / 2);
    const middle = Math.floor((start + end) / 2) - from;
    const cut = Math.max(0, Math.min(sentence.length - MAX_SENTENCE, middle - half));
    sentence = sentence.slice(cut, cut + MAX_SENTENCE);
  }
  return sentence.replace(/\s+/g, ' ').trim();
}

/** The sentence a selection stands in, read from the rendered text its offsets refer to. */
export function sentenceOfAnchor(anchor: SelectionAnchor, root: ParentNode = document): string {
  const side = anchor.inTranslation ? 'translation' : 'text';
  const element = root.querySelector(`[${TEXT_ATTR}="${CSS.escape(anchor.blockId)}"][${SIDE_ATTR}="${side}"]`);
  const text = element?.textContent ?? anchor.quote;
  return sentenceAround(text, anchor.start, anchor.end);
}

// ---------- read aloud ----------

export type ReadAloudMode = 'original' | 'translation' | 'both';

/** One utterance: a stretch of a block's text in one language. */
export interface Segment {
  blockId: string;
  side: 'original' | 'translation';
  text: string;
  /** The block's translation is not there yet: wait for it. */
  pending?: boolean;
}

const SILENT = new Set(['image', 'separator', 'code', 'table']);
/** Utterances are kept short: some speech engines stop in the middle of long ones. */
const MAX_UTTERANCE = 220;

/** Text of a block's inline markup (translations carry <em>, <sup>…): tags dropped, entities decoded. */
export function plainText(html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  doc.querySelectorAll('sup, rt, rp').forEach((n) => n.remove());
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** Splits a paragraph into utterances at sentence ends, each at most MAX_UTTERANCE characters. */
export function utterances(text: string): string[] {
  const sentences = text.match(/[^.!?。！？；;…]+[.!?。！？；;…]*["'”’」』）)]*\s*/g) ?? [text];
  const out: string[] = [];
  let current = '';
  for (const sentence of sentences) {
    if (current && (current + sentence).length > MAX_UTTERANCE) {
      out.push(current.trim());
      current = '';
    }
    if (sentence.length > MAX_UTTERANCE) {
      for (let i = 0; i < sentence.length; i += MAX_UTTERANCE) out.push(sentence.slice(i, i + MAX_UTTERANCE).trim());
    } else current += sentence;
  }
  if (current.trim()) out.push(current.trim());
  return out.filter(Boolean);
}

/**
 * What is read aloud on a page, in order: each block's original, its translation, or both (the
 * original first). A translation not done yet is a pending segment (the reader waits for it); a
 * failed one is skipped. A book read in its own language has only originals.
 */
export function readingSegments(blocks: PageBlock[], mode: ReadAloudMode, translated: boolean): Segment[] {
  const out: Segment[] = [];
  for (const block of blocks) {
    if (SILENT.has(block.type)) continue;
    if (mode !== 'translation' || !translated) {
      for (const text of utterances(block.text)) out.push({ blockId: block.id, side: 'original', text });
    }
    if (mode === 'original' || !translated) continue;
    if (block.status === 'pending') out.push({ blockId: block.id, side: 'translation', text: '', pending: true });
    else if (block.status === 'done' && block.translation)
      for (const text of utterances(plainText(block.translation)))
        out.push({ blockId: block.id, side: 'translation', text });
  }
  return out;
}

/** The voice for a language tag: the user's choice when it is there, else the best match (default voices first). */
export function pickVoice(
  voices: readonly SpeechSynthesisVoice[],
  lang: string | undefined,
  chosen?: string | null,
): SpeechSynthesisVoice | undefined {
  if (chosen) {
    const voice = voices.find((v) => v.voiceURI === chosen);
    if (voice) return voice;
  }
  if (!lang) return undefined;
  const tag = lang.toLowerCase();
  const primary = tag.split('-')[0]!;
  const matching = voices.filter((v) => v.lang.toLowerCase().replace('_', '-').split('-')[0] === primary);
  return (
    matching.find((v) => v.lang.toLowerCase().replace('_', '-') === tag && v.default) ??
    matching.find((v) => v.lang.toLowerCase().replace('_', '-') === tag) ??
    matching.find((v) => v.default) ??
    matching[0]
  );
}

// ---------- reading time ----------

/** A tab with no input for this long is idle: it sends no heartbeats (reading aloud keeps it active). */
export const IDLE_MS = 3 * 60_000;

export function heartbeatDue(state: {
  visible: boolean;
  now: number;
  lastActivity: number;
  readingAloud: boolean;
}): boolean {
  return state.visible && (state.readingAloud || state.now - state.lastActivity < IDLE_MS);
}
