/**
 * The text of a DOCX paragraph's runs (docx-body.ts walks the XML; this fills the paragraph):
 * formatting into the block html (bold, italic, super/subscript, from the run or its character
 * style), hidden runs, the fast path for plain runs, note links and ruby readings. Counts every
 * character against the document's cap (a bomb of text inflates into memory).
 */
import { NOTE_LINK_MARK } from '../blocks.ts';
import type { Paragraph } from './docx-paragraph.ts';
import { applyRunProps, BOLD, escape, ITALIC, SIMPLE_RUN, SUB, SUP, tagsFor } from './docx-paragraph.ts';
import type { DocxStyles } from './docx-styles.ts';
import { ParseError } from '../errors.ts';
import { decodeEntities, escapeHtml } from '../markup.ts';
import type { XmlTag } from '../xml-stream.ts';

export class RunText {
  /** Inside w:rt: text goes to the ruby's reading (html only, never text). */
  readingRuby = false;
  /** The reading of the ruby being read (w:rt comes before its base). */
  private rubyReading: string | undefined;
  private characters = 0;
  private readonly styles: DocxStyles;
  private readonly maxCharacters: number;

  constructor(styles: DocxStyles, maxCharacters: number) {
    this.styles = styles;
    this.maxCharacters = maxCharacters;
  }

  /** The format (bold, italic, super/subscript bits) of the run being read. */
  format(p: Paragraph): number {
    let format = p.runFormat & (SUP | SUB);
    let bold = p.runBold;
    let italic = p.runItalic;
    if (p.runStyle !== undefined && (bold === undefined || italic === undefined)) {
      const style = this.styles.character(p.runStyle);
      bold ??= style.bold;
      italic ??= style.italic;
    }
    if (bold) format |= BOLD;
    if (italic) format |= ITALIC;
    return format;
  }

  /** Whether the run being read is hidden text (its own, its character style's or its paragraph's). */
  hidden(p: Paragraph): boolean {
    if (p.runHidden !== undefined) return p.runHidden;
    if (p.runStyle !== undefined) {
      const hidden = this.styles.character(p.runStyle).hidden;
      if (hidden !== undefined) return hidden;
    }
    return this.styles.paragraph(p.styleId).hidden;
  }

  /** Adds text to the paragraph (or to the ruby reading being read) in the given format. */
  append(p: Paragraph, text: string, format: number): void {
    if (this.readingRuby) {
      this.rubyReading = (this.rubyReading ?? '') + text;
      return;
    }
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
  simpleRun(p: Paragraph, tag: XmlTag, inCode: boolean): boolean {
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
    if (!text || inCode || this.hidden(p)) return true;
    this.append(p, text.includes('&') ? decodeEntities(text) : text, this.format(p));
    return true;
  }

  /** A note reference: its label in the text, a link in the html. */
  appendNoteLink(p: Paragraph, key: string, label: string): void {
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

  /** A ruby starts: the base text is the text; the reading goes to the html as <rt>, after the base. */
  openRuby(p: Paragraph): void {
    if (!p.tagged) {
      p.tagged = true;
      p.html = escape(p.text);
    }
    p.html += `${tagsFor(p.open)[1]}<ruby>`;
    p.open = 0;
    this.rubyReading = '';
  }

  closeRuby(p: Paragraph): void {
    if (this.rubyReading === undefined) return;
    p.html += `${tagsFor(p.open)[1]}<rt>${escape(this.rubyReading.trim())}</rt></ruby>`;
    p.open = 0;
    this.rubyReading = undefined;
  }
}
