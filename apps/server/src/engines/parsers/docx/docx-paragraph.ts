/**
 * A WordprocessingML paragraph while it is read (text, html once formatting appears, run state) and
 * when it ends: its style, outline level and numbering make it a heading, list item, quote or code,
 * and Word's displayed list number leads its text. Run and paragraph properties are read from their
 * raw XML when the tokenizer can give it (most of Word's markup is properties).
 */
import type { BlockDraft } from '../blocks.ts';
import { cleanText } from '../blocks.ts';
import type { DocxNumbering } from './docx-numbering.ts';
import type { DocxStyles } from './docx-styles.ts';
import { onOffValue } from './docx-styles.ts';
import { decodeEntities, escapeHtml } from '../markup.ts';
import type { BlockType } from '../types.ts';

export const BOLD = 1;
export const ITALIC = 2;
export const SUP = 4;
export const SUB = 8;

export interface Paragraph {
  styleId?: string;
  numId?: string;
  numLevel?: number;
  outline?: number;
  text: string;
  /** Built only once the paragraph has formatting or a note link (most paragraphs have neither). */
  html: string;
  tagged: boolean;
  /** Formatting of the html tags currently open. */
  open: number;
  noteRefs?: string[];
  images?: string[];
  /** Paragraphs of text boxes anchored in this one: they follow it. */
  after?: BlockDraft[];
  // Run state lives here because runs of a text box nest inside a run of the outer paragraph.
  runFormat: number;
  runBold?: boolean;
  runItalic?: boolean;
  runHidden?: boolean;
  runStyle?: string;
  inRunProps: boolean;
}

const HTML_SPECIAL = /[&<>"]/;
const CJK = '\\u2e80-\\u9fff\\uf900-\\ufaff\\uff00-\\uffef\\u3000-\\u303f';
/** What cleanText would change besides trimming: most paragraphs have none of it. */
const NEEDS_CLEANING = new RegExp(`[\\t\\n\\r\\f\\v\\u00a0]| {2}|[${CJK}] [${CJK}]`);

/**
 * cleanText, with a fast path. The result is always a fresh string: text pieces are slices of the
 * 256 KB chunk strings the tokenizer read, and a kept slice would keep its whole chunk alive (the
 * book's XML, not its text, would stay in memory).
 */
export function clean(text: string, preserve: boolean): string {
  const out = preserve || NEEDS_CLEANING.test(text) ? cleanText(text, preserve) : text.trim();
  return (' ' + out).slice(1);
}

export function escape(text: string): string {
  return HTML_SPECIAL.test(text) ? escapeHtml(text) : text;
}

export function tagsFor(format: number): [string, string] {
  let open = '';
  let close = '';
  if (format & BOLD) {
    open += '<strong>';
    close = '</strong>' + close;
  }
  if (format & ITALIC) {
    open += '<em>';
    close = '</em>' + close;
  }
  if (format & SUP) {
    open += '<sup>';
    close = '</sup>' + close;
  }
  if (format & SUB) {
    open += '<sub>';
    close = '</sub>' + close;
  }
  return [open, close];
}

export interface ParagraphContext {
  styles: DocxStyles;
  numbering?: DocxNumbering;
  inTable: boolean;
}

export interface FinishedParagraph {
  drafts: BlockDraft[];
  /** The paragraph is a Title-style heading: it must not decide where chapters start. */
  title?: BlockDraft;
  /** A heading from the paragraph's own outline level: shown, never a chapter start. */
  weakHeading?: BlockDraft;
}

/** The drafts a finished paragraph becomes: itself, its images, the text boxes anchored in it. */
export function paragraphDrafts(p: Paragraph, context: ParagraphContext): FinishedParagraph {
  const style = context.styles.paragraph(p.styleId);
  const inTable = context.inTable;
  let type: BlockType = 'paragraph';
  let level: number | undefined;
  const preserve = style.code;
  let text = clean(p.text, preserve);
  const outline = p.outline !== undefined && p.outline >= 0 && p.outline <= 8 ? p.outline + 1 : undefined;
  let headingLevel = p.outline === 9 ? undefined : style.headingLevel;
  let weak = false;
  if (headingLevel !== undefined) headingLevel = outline ?? headingLevel;
  else if (outline !== undefined && looksLikeHeading(text)) {
    // An outline level set on the paragraph itself, not through a heading style: HTML imports mark
    // real sections this way, but forms and contracts put it on body sentences. Such headings are
    // shown as headings but never decide where chapters start.
    headingLevel = outline;
    weak = true;
  }
  // Tables never hold chapter headings (forms put heading styles on their cells).
  if (headingLevel !== undefined && !inTable) {
    type = 'heading';
    level = Math.min(6, headingLevel);
  } else if (style.code) type = 'code';
  else if (style.quote) type = 'quote';
  const numId = p.numId ?? style.numId;
  const numbered = numId !== undefined && numId !== '0';
  if (numbered && type === 'paragraph' && !inTable) type = 'listItem';
  // The number Word shows ("3.2.", "a)") is part of what the reader sees: it leads the text.
  const label = numbered ? context.numbering?.next(numId, p.numLevel ?? style.numLevel ?? 0) : undefined;
  if (label && text) {
    text = `${label} ${text}`;
    if (p.tagged) p.html = `${escape(label)} ${p.html}`;
  }
  const drafts: BlockDraft[] = [];
  const finished: FinishedParagraph = { drafts };
  // Word's HTML-form boundaries are artefacts, not text.
  if (text && !/^(Top|Bottom) of Form$/.test(text)) {
    const draft: BlockDraft = { type, text };
    if (p.tagged) {
      const html = clean(p.html + tagsFor(p.open)[1], preserve);
      if (html !== escapeHtml(text)) draft.html = html;
    }
    if (level !== undefined) draft.level = level;
    if (p.noteRefs) draft.noteRefKeys = [...new Set(p.noteRefs)];
    if (type === 'heading' && style.title) finished.title = draft;
    else if (type === 'heading' && weak) finished.weakHeading = draft;
    drafts.push(draft);
  }
  if (p.images) for (const imageId of p.images) drafts.push({ type: 'image', text: '', imageId });
  if (p.after) drafts.push(...p.after);
  return finished;
}

/** What a simple run may hold after its properties: text, tabs, line breaks, layout marks. */
export const SIMPLE_RUN =
  /<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<w:t\/>|<w:tab\/>|<w:br\/>|<w:cr\/>|<w:lastRenderedPageBreak\/>|\s+/y;
const VAL = /\sw:val\s*=\s*(?:"([^"]*)"|'([^']*)')/;
const RUN_PROPS = /<w:(b|i|vanish|vertAlign|rStyle|rPrChange)(?=[\s/>])([^>]*)>/g;
const PARAGRAPH_PROPS = /<w:(pStyle|numId|ilvl|outlineLvl|rPr|sectPr|pPrChange)(?=[\s/>])([^>]*)>/g;

function valueOf(attrs: string): string | undefined {
  const m = VAL.exec(attrs);
  return m ? decodeEntities(m[1] ?? m[2] ?? '') : undefined;
}

export function applyRunProps(p: Paragraph, raw: string): void {
  RUN_PROPS.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = RUN_PROPS.exec(raw)) !== null) {
    const value = m[1] === 'rPrChange' ? undefined : valueOf(m[2]!);
    switch (m[1]) {
      case 'b':
        p.runBold = onOffValue(value);
        break;
      case 'i':
        p.runItalic = onOffValue(value);
        break;
      case 'vanish':
        p.runHidden = onOffValue(value);
        break;
      case 'rStyle':
        p.runStyle = value;
        break;
      case 'vertAlign':
        p.runFormat = value === 'superscript' ? SUP : value === 'subscript' ? SUB : 0;
        break;
      default:
        // w:rPrChange: what follows are the properties before a tracked change.
        return;
    }
  }
}

export function applyParagraphProps(p: Paragraph, raw: string): void {
  PARAGRAPH_PROPS.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = PARAGRAPH_PROPS.exec(raw)) !== null) {
    const name = m[1];
    // Schema order puts the paragraph mark's rPr, a section break and old revisions after what we
    // read: stop there.
    if (name === 'rPr' || name === 'sectPr' || name === 'pPrChange') return;
    const value = valueOf(m[2]!);
    if (name === 'pStyle') p.styleId = value;
    else if (name === 'numId') p.numId = value;
    else if (name === 'ilvl') p.numLevel = Number(value) || 0;
    else {
      const level = Number(value);
      if (Number.isInteger(level)) p.outline = level;
    }
  }
}

/** Short, and not a sentence (numbered clauses like "8.1. Requirements." are headings). */
function looksLikeHeading(text: string): boolean {
  if (!text || text.length > 120 || text.includes('\n\n')) return false;
  return !/[.!?;:,]$/.test(text) || /^(\d{1,3}\.)+\d{0,3}\.?\s*\S/.test(text);
}
