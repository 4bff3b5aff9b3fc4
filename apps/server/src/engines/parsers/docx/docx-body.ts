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
 * fields (instruction text never leaks; the displayed result is kept), imported chunks (altChunk).
 * The runs' text goes into the paragraph through docx-runs.ts.
 */
import type { BlockDraft } from '../blocks.ts';
import type { Cell, NoteBody, Table } from './docx-drafts.ts';
import { tableDrafts } from './docx-drafts.ts';
import {
  ALT_CHUNK,
  B,
  BLIP,
  BR,
  CODES,
  CR,
  EXTENT,
  FLDCHAR,
  HYPHEN,
  I,
  ILVL,
  IMAGEDATA,
  MATH_T,
  NOTE,
  NOTEREF,
  NUMID,
  OUTLINE,
  P,
  PPR,
  PSTYLE,
  R,
  RPR,
  RSTYLE,
  RUBY,
  RUBY_TEXT,
  SKIP,
  SOFT_HYPHEN,
  SYM,
  T,
  TAB,
  TBL,
  TC,
  TR,
  VANISH,
  VERTALIGN,
} from './docx-elements.ts';
import type { DocxNumbering } from './docx-numbering.ts';
import type { Paragraph, ParagraphContext } from './docx-paragraph.ts';
import { applyParagraphProps, applyRunProps, paragraphDrafts, SUB, SUP } from './docx-paragraph.ts';
import { RunText } from './docx-runs.ts';
import { onOff } from './docx-styles.ts';
import type { DocxStyles } from './docx-styles.ts';
import type { XmlHandler, XmlTag } from '../xml-stream.ts';

export type { NoteBody } from './docx-drafts.ts';
export { noteDrafts } from './docx-drafts.ts';

/** Resolves a relationship id of the part being walked to an image id (undefined: no usable image). */
export type ImageResolver = (
  relId: string,
  extent: { width: number; height: number } | undefined,
) => string | undefined;

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
  /** The drafts of an imported chunk (w:altChunk, docx-altchunk.ts) by relationship id. */
  altChunk?(relId: string): BlockDraft[] | undefined;
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
  /** Notes referenced with a custom mark ("*"): the mark, which is their label. */
  readonly customLabels = new Map<string, string>();
  /** Runs' text into the open paragraph (formatting, hidden runs, ruby readings, the character cap). */
  private readonly runs: RunText;
  /** What finishing a paragraph needs to know of the walk; one object for the whole walk. */
  private readonly paragraphContext: ParagraphContext;

  constructor(options: DocxWalkerOptions) {
    this.options = options;
    this.paragraphContext = { styles: options.styles, numbering: options.numbering, inTable: false };
    this.runs = new RunText(options.styles, options.maxCharacters ?? Infinity);
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
    this.runs.append(p, text, this.runs.format(p));
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
          if (!selfClosing && this.runs.simpleRun(p, tag, this.inCode > 0)) tag.skip();
        }
        return;
      case T:
      case MATH_T:
        if (!selfClosing && p && this.inCode === 0 && !this.runs.hidden(p)) this.capture = true;
        return;
      case TAB:
        if (p && this.inCode === 0 && !this.inParagraphProps) this.runs.append(p, '\t', p.open);
        return;
      case BR:
      case CR: {
        if (!p || this.inCode || this.inParagraphProps) return;
        const type = code === BR ? tag.attr('w:type') : undefined;
        // Page and column breaks are layout; a space keeps the words on both sides apart.
        this.runs.append(p, type === 'page' || type === 'column' ? ' ' : '\n', p.open);
        return;
      }
      case HYPHEN:
        if (p && !this.inCode) this.runs.append(p, '-', this.runs.format(p));
        return;
      case SOFT_HYPHEN:
        return;
      case SYM: {
        const char = parseInt(tag.attr('w:char') ?? '', 16);
        // F000-F0FF are glyph positions in symbol fonts (Wingdings bullets...), not characters.
        if (p && !this.inCode && Number.isFinite(char) && char > 31 && (char < 0xe000 || char > 0xf8ff)) {
          this.runs.append(p, String.fromCodePoint(char), this.runs.format(p));
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
        } else this.runs.appendNoteLink(p, key, this.options.labelFor(key));
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
      case RUBY:
        if (p && !selfClosing) this.runs.openRuby(p);
        return;
      case RUBY_TEXT:
        if (!selfClosing) this.runs.readingRuby = true;
        return;
      case SKIP:
        if (!tag.skip()) this.skip = 1;
        return;
      case ALT_CHUNK: {
        const id = tag.attr('r:id');
        for (const draft of (id && this.options.altChunk?.(id)) || []) this.out(draft);
        return;
      }
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
      case RUBY_TEXT:
        this.runs.readingRuby = false;
        return;
      case RUBY: {
        const p = this.paragraphs[this.paragraphs.length - 1];
        if (p) this.runs.closeRuby(p);
        return;
      }
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
        this.paragraphContext.inTable = this.tables.length > 0;
        const { drafts, title, weakHeading } = paragraphDrafts(p, this.paragraphContext);
        if (title) this.titles.add(title);
        if (weakHeading) this.weakHeadings.add(weakHeading);
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
        if (table) for (const d of tableDrafts(table)) this.out(d);
        return;
      }
      case NOTE:
        this.targets.pop();
        return;
    }
  }
}
