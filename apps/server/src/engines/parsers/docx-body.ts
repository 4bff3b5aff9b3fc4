/**
 * Walks WordprocessingML (word/document.xml, footnotes.xml, endnotes.xml) as a stream of tags and
 * emits block drafts as each paragraph or table ends. Nothing but the current paragraph, the open
 * tables and the drafts themselves is kept, so memory follows the text, not the XML (Word's markup is
 * 10-50× the text: a 12.5 MB document.xml holds 270k characters).
 *
 * What is read: paragraphs and runs (bold/italic/super/subscript into the block html), headings from
 * paragraph styles and outline levels, list numbering (listItem), tables (data tables as one text
 * block, layout tables as their paragraphs), images (DrawingML blips and VML imagedata), text boxes,
 * footnote/endnote references, hyperlinks, tracked changes (insertions kept, deletions dropped) and
 * fields (instruction text never leaks; the displayed result is kept).
 */
import type { BlockDraft } from './blocks.ts';
import { cleanText, NOTE_LINK_MARK } from './blocks.ts';
import { onOff, onOffValue } from './docx-styles.ts';
import { ParseError } from './errors.ts';
import type { DocxNumbering } from './docx-numbering.ts';
import type { DocxStyles } from './docx-styles.ts';
import { decodeEntities, escapeHtml } from './markup.ts';
import type { BlockType } from './types.ts';
import type { XmlHandler, XmlTag } from './xml-stream.ts';

/** Resolves a relationship id of the part being walked to an image id (undefined: no usable image). */
export type ImageResolver = (
  relId: string,
  extent: { width: number; height: number } | undefined,
) => string | undefined;

export interface NoteBody {
  key: string;
  drafts: BlockDraft[];
}

const BOLD = 1;
const ITALIC = 2;
const SUP = 4;
const SUB = 8;

// Element codes: a Map lookup per tag is much cheaper than a long string switch.
const P = 1;
const R = 2;
const T = 3;
const TAB = 4;
const BR = 5;
const CR = 6;
const PPR = 7;
const RPR = 8;
const PSTYLE = 9;
const NUMID = 10;
const ILVL = 31;
const OUTLINE = 11;
const B = 12;
const I = 13;
const VERTALIGN = 14;
const VANISH = 15;
const RSTYLE = 16;
const FLDCHAR = 17;
const NOTEREF = 18;
const TBL = 19;
const TR = 20;
const TC = 21;
const EXTENT = 22;
const BLIP = 23;
const IMAGEDATA = 24;
const NOTE = 25;
const SKIP = 26;
const HYPHEN = 27;
const SYM = 28;
const MATH_T = 29;
const SOFT_HYPHEN = 30;

const CODES = new Map<string, number>([
  ['w:p', P],
  ['w:r', R],
  ['w:t', T],
  ['w:tab', TAB],
  ['w:ptab', TAB],
  ['w:br', BR],
  ['w:cr', CR],
  ['w:pPr', PPR],
  ['w:rPr', RPR],
  ['w:pStyle', PSTYLE],
  ['w:numId', NUMID],
  ['w:ilvl', ILVL],
  ['w:outlineLvl', OUTLINE],
  ['w:b', B],
  ['w:i', I],
  ['w:vertAlign', VERTALIGN],
  ['w:vanish', VANISH],
  ['w:rStyle', RSTYLE],
  ['w:fldChar', FLDCHAR],
  ['w:footnoteReference', NOTEREF],
  ['w:endnoteReference', NOTEREF],
  ['w:tbl', TBL],
  ['w:tr', TR],
  ['w:tc', TC],
  ['wp:extent', EXTENT],
  ['a:blip', BLIP],
  ['v:imagedata', IMAGEDATA],
  ['w:footnote', NOTE],
  ['w:endnote', NOTE],
  ['w:noBreakHyphen', HYPHEN],
  ['w:softHyphen', SOFT_HYPHEN],
  ['w:sym', SYM],
  ['m:t', MATH_T],
  // Subtrees that hold no readable text, or text that must not be read: deletions, old revisions of
  // properties, field instructions, the VML fallback of content also given as DrawingML, and
  // property blocks whose children (w:tabs > w:tab...) would otherwise look like content.
  ...[
    'w:del',
    'w:moveFrom',
    'w:delText',
    'w:delInstrText',
    'w:instrText',
    'w:pPrChange',
    'w:rPrChange',
    'w:sectPrChange',
    'w:tblPrChange',
    'w:tblGridChange',
    'w:trPrChange',
    'w:tcPrChange',
    'w:numberingChange',
    'w:sectPr',
    'w:tblPr',
    'w:tblGrid',
    'w:trPr',
    'w:tcPr',
    'w:tabs',
    'w:sdtPr',
    'w:sdtEndPr',
    'w:footnotePr',
    'w:endnotePr',
    'mc:Fallback',
    'wp:docPr',
    'w:comments',
  ].map((name): [string, number] => [name, SKIP]),
]);

interface Paragraph {
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

interface Cell {
  drafts: BlockDraft[];
}

interface Table {
  rows: Cell[][];
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
function clean(text: string, preserve: boolean): string {
  const out = preserve || NEEDS_CLEANING.test(text) ? cleanText(text, preserve) : text.trim();
  return (' ' + out).slice(1);
}

function escape(text: string): string {
  return HTML_SPECIAL.test(text) ? escapeHtml(text) : text;
}

function tagsFor(format: number): [string, string] {
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

export interface DocxWalkerOptions {
  styles: DocxStyles;
  /** List numbers; without it numbered paragraphs are list items with no label. */
  numbering?: DocxNumbering;
  resolveImage: ImageResolver;
  /** Receives body blocks in document order. */
  emit(draft: BlockDraft): void;
  /** Numbers footnote/endnote references in order of first appearance; returns the label. */
  labelFor(key: string): string;
  /** Text beyond this many characters is refused (a bomb of text inflates into memory). */
  maxCharacters?: number;
}

export class DocxWalker implements XmlHandler {
  /** Title-style paragraphs: headings that must not decide where chapters start. */
  readonly titles = new Set<BlockDraft>();
  /** Headings from a paragraph's own outline level: shown as headings, never chapter starts. */
  readonly weakHeadings = new Set<BlockDraft>();
  /** Note bodies (footnotes.xml / endnotes.xml walks), in file order. */
  readonly notes: NoteBody[] = [];
  private readonly options: DocxWalkerOptions;
  private skip = 0;
  private capture = false;
  private readonly paragraphs: Paragraph[] = [];
  private inParagraphProps = false;
  private readonly tables: Table[] = [];
  /** Where drafts go: the body, or the cell / note currently open. */
  private readonly targets: BlockDraft[][] = [];
  /** Open fields: true while in the instruction part (before w:fldChar separate). */
  private readonly fields: boolean[] = [];
  private inCode = 0;
  private extent: { width: number; height: number } | undefined;
  private pendingCustomMark: string | undefined;
  private characters = 0;
  private readonly maxCharacters: number;
  /** Notes referenced with a custom mark ("*"): the mark, which is their label. */
  readonly customLabels = new Map<string, string>();

  constructor(options: DocxWalkerOptions) {
    this.options = options;
    this.maxCharacters = options.maxCharacters ?? Infinity;
  }

  wantsText(): boolean {
    return this.capture;
  }

  text(text: string): void {
    const p = this.paragraphs[this.paragraphs.length - 1];
    if (!p) return;
    if (this.pendingCustomMark) {
      // A custom footnote mark ("*") is the text of the run after the reference.
      const mark = text.trim().slice(0, 8);
      if (mark && !this.customLabels.has(this.pendingCustomMark)) this.customLabels.set(this.pendingCustomMark, mark);
      this.pendingCustomMark = undefined;
    }
    this.append(p, text, this.currentFormat(p));
  }

  private currentFormat(p: Paragraph): number {
    let format = p.runFormat & (SUP | SUB);
    let bold = p.runBold;
    let italic = p.runItalic;
    if (p.runStyle !== undefined && (bold === undefined || italic === undefined)) {
      const style = this.options.styles.character(p.runStyle);
      bold ??= style.bold;
      italic ??= style.italic;
    }
    if (bold) format |= BOLD;
    if (italic) format |= ITALIC;
    return format;
  }

  private runHidden(p: Paragraph): boolean {
    if (p.runHidden !== undefined) return p.runHidden;
    if (p.runStyle !== undefined) {
      const hidden = this.options.styles.character(p.runStyle).hidden;
      if (hidden !== undefined) return hidden;
    }
    return this.options.styles.paragraph(p.styleId).hidden;
  }

  private append(p: Paragraph, text: string, format: number): void {
    this.characters += text.length;
    if (this.characters > this.maxCharacters) {
      throw new ParseError('fileTooComplex', `The document holds more than ${this.maxCharacters} characters`);
    }
    p.text += text;
    if (!p.tagged) {
      if (format === 0) return;
      p.tagged = true;
      p.html = escape(p.text.slice(0, p.text.length - text.length));
    }
    if (format !== p.open) {
      p.html += tagsFor(p.open)[1] + tagsFor(format)[0];
      p.open = format;
    }
    p.html += escape(text);
  }

  /**
   * Most runs are properties plus text (and tabs or breaks): read those straight from the raw XML, a
   * good part of the whole walk. Anything else (fields, drawings, notes...) gets the general path.
   */
  private simpleRun(p: Paragraph, tag: XmlTag): boolean {
    const raw = tag.peek();
    if (raw === undefined) return false;
    let at = 0;
    let props = '';
    if (raw.startsWith('<w:rPr>')) {
      const end = raw.indexOf('</w:rPr>');
      // A nested w:rPr (inside w:rPrChange) would end the properties early: general path.
      if (end === -1 || raw.lastIndexOf('<w:rPr>', end) !== 0) return false;
      props = raw.slice(7, end);
      at = end + 8;
    } else if (raw.startsWith('<w:rPr/>')) at = 8;
    SIMPLE_RUN.lastIndex = at;
    // Usually a single w:t: no array for that.
    let text = '';
    let pieces = 0;
    while (at < raw.length) {
      const m = SIMPLE_RUN.exec(raw);
      if (!m) return false;
      at = SIMPLE_RUN.lastIndex;
      const piece =
        m[1] !== undefined ? m[1] : m[0] === '<w:tab/>' ? '\t' : m[0] === '<w:br/>' || m[0] === '<w:cr/>' ? '\n' : '';
      if (piece) {
        text = pieces++ ? text + piece : piece;
      }
    }
    if (props) applyRunProps(p, props);
    if (!text || this.inCode || this.runHidden(p)) return true;
    this.append(p, text.includes('&') ? decodeEntities(text) : text, this.currentFormat(p));
    return true;
  }

  private appendNoteLink(p: Paragraph, key: string, label: string): void {
    const shown = `[${label}]`;
    if (!p.tagged) {
      p.tagged = true;
      p.html = escape(p.text);
    }
    p.text += shown;
    p.html += `${tagsFor(p.open)[1]}<sup><a href="#${NOTE_LINK_MARK}${escapeHtml(key)}${NOTE_LINK_MARK}">${shown}</a></sup>`;
    p.open = 0;
    (p.noteRefs ??= []).push(key);
  }

  private out(draft: BlockDraft): void {
    const target = this.targets[this.targets.length - 1];
    if (target) target.push(draft);
    else this.options.emit(draft);
  }

  open(name: string, tag: XmlTag, selfClosing: boolean): void {
    if (this.skip) {
      if (!selfClosing) this.skip++;
      return;
    }
    const code = CODES.get(name);
    if (code === undefined) return;
    const p = this.paragraphs[this.paragraphs.length - 1];
    switch (code) {
      case P:
        if (selfClosing) return;
        this.paragraphs.push({ text: '', html: '', tagged: false, open: 0, runFormat: 0, inRunProps: false });
        return;
      case R:
        if (p) {
          p.runFormat = 0;
          p.runBold = undefined;
          p.runItalic = undefined;
          p.runHidden = undefined;
          p.runStyle = undefined;
          if (!selfClosing && this.simpleRun(p, tag)) tag.skip();
        }
        return;
      case T:
      case MATH_T:
        if (!selfClosing && p && this.inCode === 0 && !this.runHidden(p)) this.capture = true;
        return;
      case TAB:
        if (p && this.inCode === 0 && !this.inParagraphProps) this.append(p, '\t', p.open);
        return;
      case BR:
      case CR: {
        if (!p || this.inCode || this.inParagraphProps) return;
        const type = code === BR ? tag.attr('w:type') : undefined;
        // Page and column breaks are layout; a space keeps the words on both sides apart.
        this.append(p, type === 'page' || type === 'column' ? ' ' : '\n', p.open);
        return;
      }
      case HYPHEN:
        if (p && !this.inCode) this.append(p, '-', this.currentFormat(p));
        return;
      case SOFT_HYPHEN:
        return;
      case SYM: {
        const char = parseInt(tag.attr('w:char') ?? '', 16);
        // F000-F0FF are glyph positions in symbol fonts (Wingdings bullets...), not characters.
        if (p && !this.inCode && Number.isFinite(char) && char > 31 && (char < 0xe000 || char > 0xf8ff)) {
          this.append(p, String.fromCodePoint(char), this.currentFormat(p));
        }
        return;
      }
      case PPR: {
        // Property blocks are most of Word's XML: read them as one string when the tokenizer can.
        const inner = p ? tag.inner() : undefined;
        if (inner !== undefined) applyParagraphProps(p!, inner);
        else if (!selfClosing) this.inParagraphProps = true;
        return;
      }
      case RPR: {
        // The paragraph mark's run properties (inside w:pPr) say nothing about the text.
        if (this.inParagraphProps) {
          if (!tag.skip()) this.skip = 1;
          return;
        }
        const inner = p ? tag.inner() : undefined;
        if (inner !== undefined) applyRunProps(p!, inner);
        else if (p && !selfClosing) p.inRunProps = true;
        return;
      }
      case PSTYLE:
        if (p && this.inParagraphProps) p.styleId = tag.attr('w:val');
        return;
      case NUMID:
        if (p && this.inParagraphProps) p.numId = tag.attr('w:val');
        return;
      case ILVL:
        if (p && this.inParagraphProps) p.numLevel = Number(tag.attr('w:val')) || 0;
        return;
      case OUTLINE:
        if (p && this.inParagraphProps) {
          const level = Number(tag.attr('w:val'));
          if (Number.isInteger(level)) p.outline = level;
        }
        return;
      case B:
        if (p?.inRunProps) p.runBold = onOff(tag);
        return;
      case I:
        if (p?.inRunProps) p.runItalic = onOff(tag);
        return;
      case VANISH:
        if (p?.inRunProps) p.runHidden = onOff(tag);
        return;
      case RSTYLE:
        if (p?.inRunProps) p.runStyle = tag.attr('w:val');
        return;
      case VERTALIGN:
        if (p?.inRunProps) {
          const value = tag.attr('w:val');
          p.runFormat = value === 'superscript' ? SUP : value === 'subscript' ? SUB : 0;
        }
        return;
      case FLDCHAR: {
        const type = tag.attr('w:fldCharType');
        if (type === 'begin') {
          this.fields.push(true);
          this.inCode++;
        } else if (type === 'separate') {
          if (this.fields[this.fields.length - 1] === true) {
            this.fields[this.fields.length - 1] = false;
            this.inCode--;
          }
        } else if (type === 'end') {
          if (this.fields.pop() === true) this.inCode--;
        }
        return;
      }
      case NOTEREF: {
        const id = tag.attr('w:id');
        if (!p || id === undefined || this.inCode) return;
        const key = `${name === 'w:endnoteReference' ? 'endnote' : 'footnote'}-${id}`;
        const custom = tag.attr('w:customMarkFollows');
        if (custom !== undefined && /^(?:1|true|on)$/i.test(custom)) {
          // The mark is the next run's text; link the note without inventing a number.
          (p.noteRefs ??= []).push(key);
          this.pendingCustomMark = key;
        } else this.appendNoteLink(p, key, this.options.labelFor(key));
        return;
      }
      case TBL:
        if (!selfClosing) this.tables.push({ rows: [] });
        return;
      case TR: {
        const table = this.tables[this.tables.length - 1];
        if (table && !selfClosing) table.rows.push([]);
        return;
      }
      case TC: {
        const table = this.tables[this.tables.length - 1];
        if (!table || selfClosing) return;
        if (!table.rows.length) table.rows.push([]);
        const cell: Cell = { drafts: [] };
        table.rows[table.rows.length - 1]!.push(cell);
        this.targets.push(cell.drafts);
        return;
      }
      case EXTENT: {
        const cx = Number(tag.attr('cx'));
        const cy = Number(tag.attr('cy'));
        // EMU: 914,400 per inch, 9,525 per CSS pixel.
        this.extent = cx > 0 && cy > 0 ? { width: Math.round(cx / 9525), height: Math.round(cy / 9525) } : undefined;
        return;
      }
      case BLIP:
      case IMAGEDATA: {
        const rel = code === BLIP ? tag.attr('r:embed') : (tag.attr('r:id') ?? tag.attr('r:pict'));
        if (!rel || this.inCode) return;
        const imageId = this.options.resolveImage(rel, this.extent);
        this.extent = undefined;
        if (!imageId) return;
        if (p) (p.images ??= []).push(imageId);
        else this.out({ type: 'image', text: '', imageId });
        return;
      }
      case NOTE: {
        if (selfClosing) return;
        const type = tag.attr('w:type');
        const id = tag.attr('w:id');
        // Separator notes hold Word's footnote rule, not text.
        if (id === undefined || (type !== undefined && type !== 'normal')) {
          if (!tag.skip()) this.skip = 1;
          return;
        }
        const note: NoteBody = { key: `${name === 'w:endnote' ? 'endnote' : 'footnote'}-${id}`, drafts: [] };
        this.notes.push(note);
        this.targets.push(note.drafts);
        return;
      }
      case SKIP:
        if (!tag.skip()) this.skip = 1;
        return;
    }
  }

  close(name: string): void {
    if (this.skip) {
      this.skip--;
      return;
    }
    const code = CODES.get(name);
    if (code === undefined) return;
    switch (code) {
      case T:
      case MATH_T:
        this.capture = false;
        return;
      case PPR:
        this.inParagraphProps = false;
        return;
      case RPR: {
        const p = this.paragraphs[this.paragraphs.length - 1];
        if (p) p.inRunProps = false;
        return;
      }
      case P: {
        const p = this.paragraphs.pop();
        if (!p) return;
        this.capture = false;
        this.inParagraphProps = false;
        const drafts = this.finishParagraph(p);
        const outer = this.paragraphs[this.paragraphs.length - 1];
        if (outer) (outer.after ??= []).push(...drafts);
        else for (const d of drafts) this.out(d);
        return;
      }
      case TC: {
        if (this.tables.length) this.targets.pop();
        return;
      }
      case TBL: {
        const table = this.tables.pop();
        if (table) this.finishTable(table);
        return;
      }
      case NOTE:
        this.targets.pop();
        return;
    }
  }

  private finishParagraph(p: Paragraph): BlockDraft[] {
    const style = this.options.styles.paragraph(p.styleId);
    const inTable = this.tables.length > 0;
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
    const label = numbered ? this.options.numbering?.next(numId, p.numLevel ?? style.numLevel ?? 0) : undefined;
    if (label && text) {
      text = `${label} ${text}`;
      if (p.tagged) p.html = `${escape(label)} ${p.html}`;
    }
    const drafts: BlockDraft[] = [];
    // Word's HTML-form boundaries are artefacts, not text.
    if (text && !/^(Top|Bottom) of Form$/.test(text)) {
      const draft: BlockDraft = { type, text };
      if (p.tagged) {
        const html = clean(p.html + tagsFor(p.open)[1], preserve);
        if (html !== escapeHtml(text)) draft.html = html;
      }
      if (level !== undefined) draft.level = level;
      if (p.noteRefs) draft.noteRefKeys = [...new Set(p.noteRefs)];
      if (type === 'heading' && style.title) this.titles.add(draft);
      else if (type === 'heading' && weak) this.weakHeadings.add(draft);
      drafts.push(draft);
    }
    if (p.images) for (const imageId of p.images) drafts.push({ type: 'image', text: '', imageId });
    if (p.after) drafts.push(...p.after);
    return drafts;
  }

  /**
   * Tables used for page layout (one cell per row, or a few rows of long text) are read as their
   * paragraphs; data tables become one text block, a line per row and a tab between cells.
   */
  private finishTable(table: Table): void {
    let maxCells = 0;
    let longCell = false;
    const cellTexts = table.rows.map((row) => {
      maxCells = Math.max(maxCells, row.length);
      return row.map((cell) => {
        const text = cell.drafts
          .filter((d) => d.type !== 'image')
          .map((d) => d.text)
          .join(' ')
          .replace(/\s+/g, ' ')
          .trim();
        if (text.length > 300) longCell = true;
        return text;
      });
    });
    if (maxCells <= 1 || (longCell && table.rows.length <= 3)) {
      for (const row of table.rows) for (const cell of row) for (const d of cell.drafts) this.out(d);
      return;
    }
    const text = cellTexts
      .map((row) => row.filter(Boolean).join('\t'))
      .filter(Boolean)
      .join('\n');
    const noteRefs = new Set<string>();
    const images: BlockDraft[] = [];
    for (const row of table.rows)
      for (const cell of row)
        for (const d of cell.drafts) {
          if (d.type === 'image') images.push(d);
          for (const key of d.noteRefKeys ?? []) noteRefs.add(key);
        }
    if (text) {
      const draft: BlockDraft = { type: 'table', text };
      if (noteRefs.size) draft.noteRefKeys = [...noteRefs];
      this.out(draft);
    }
    for (const d of images) this.out(d);
  }
}

/** What a simple run may hold after its properties: text, tabs, line breaks, layout marks. */
const SIMPLE_RUN =
  /<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<w:t\/>|<w:tab\/>|<w:br\/>|<w:cr\/>|<w:lastRenderedPageBreak\/>|\s+/y;
const VAL = /\sw:val\s*=\s*(?:"([^"]*)"|'([^']*)')/;
const RUN_PROPS = /<w:(b|i|vanish|vertAlign|rStyle|rPrChange)(?=[\s/>])([^>]*)>/g;
const PARAGRAPH_PROPS = /<w:(pStyle|numId|ilvl|outlineLvl|rPr|sectPr|pPrChange)(?=[\s/>])([^>]*)>/g;

function valueOf(attrs: string): string | undefined {
  const m = VAL.exec(attrs);
  return m ? decodeEntities(m[1] ?? m[2] ?? '') : undefined;
}

function applyRunProps(p: Paragraph, raw: string): void {
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

function applyParagraphProps(p: Paragraph, raw: string): void {
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

/** One footnote block per note: its paragraphs joined (a note reads as one unit), images after it. */
export function noteDrafts(note: NoteBody, label: string | undefined): BlockDraft[] {
  const parts = note.drafts.filter((d) => d.type !== 'image' && d.text);
  const out: BlockDraft[] = [];
  if (parts.length) {
    const text = parts.map((d) => d.text.replace(/\n+/g, ' ')).join(' ');
    const draft: BlockDraft = { type: 'footnote', text, noteKey: note.key };
    if (label) draft.noteLabel = label;
    if (parts.some((d) => d.html))
      draft.html = parts.map((d) => (d.html ?? escapeHtml(d.text)).replace(/\n+/g, ' ')).join(' ');
    out.push(draft);
  }
  for (const d of note.drafts) if (d.type === 'image') out.push(d);
  return out;
}
