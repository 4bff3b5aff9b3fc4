/**
 * Rich Text Format, as Word, WordPad, WPS and TextEdit save it — and as many ".doc" files really are
 * ("Save as Rich Text" kept the name; mail gateways and old archives did the same). Read into the
 * stories Word's binary files give (word-binary.ts), so doc.ts makes the book either way: body
 * paragraphs, footnotes and endnotes as notes, text boxes after the text, the paragraphs the
 * document itself calls headings (outline levels, heading styles) marked, and the \info title and
 * author.
 *
 * One pass over the bytes, a group stack, no tree: a 30 MB file costs its size once. Text comes as
 * 8-bit bytes in the code page of the run's font (\fcharset) or the document's (\ansicpgN), as
 * \'hh escapes of those bytes, or as \uN Unicode followed by a fallback the reader skips (\ucN).
 * Destinations a reader should not show (font and colour tables, pictures, field instructions,
 * headers and footers, unknown \* groups) are skipped whole.
 */
import { codePageOfCharset, codePageOfFontName } from '../doc/doc-codepages.ts';
import { ParseError } from '../errors.ts';
import { PARSE_LIMITS } from '../limits.ts';
import { HEADING_NAME } from '../docx/docx-styles.ts';
import { codePageOfAnsiCpg, decoderFor, READ_THROUGH, SKIPPED, SYMBOLS } from './rtf-words.ts';
import { NOTE_MARK_CLOSE, NOTE_MARK_OPEN, type WordNote, type WordStories } from '../doc/word-binary.ts';

/** Put before a paragraph the document styles as a heading; doc.ts turns it into a chapter heading. */
export const RTF_HEADING_MARK = '\ue002';

export interface RtfDocument extends WordStories {
  title?: string;
  author?: string;
  description?: string;
}

/** Whether the bytes are RTF: `{\rtf`, after at most a BOM and some white space. */
export function isRtf(input: Buffer): boolean {
  let i = 0;
  if (input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf) i = 3;
  while (i < 16 && (input[i] === 0x20 || input[i] === 0x0a || input[i] === 0x0d || input[i] === 0x09)) i++;
  return input.subarray(i, i + 5).toString('latin1') === '{\\rtf';
}

type Sink =
  | 'body'
  | 'note'
  | 'textBox'
  | 'info'
  | 'title'
  | 'author'
  | 'description'
  | 'fontName'
  | 'styleSheet'
  | 'styleName'
  | 'none';

interface Group {
  sink: Sink;
  /** Fallback characters to skip after each \uN. */
  uc: number;
  codePage: string;
  hidden: boolean;
  /** The group is \*: an unknown destination in it is skipped. */
  ignorable: boolean;
  /** The first control word of the group has been seen (only it can be a destination). */
  started: boolean;
}

interface Paragraph {
  text: string;
  level?: number;
}

/** Heading level (0-based) a paragraph style gives: its outline level, or a "heading N" name. */
interface StyleDef {
  level?: number;
  name: string;
}

class RtfReader {
  private readonly stack: Group[] = [];
  private group: Group;
  private documentCodePage = 'windows-1252';
  private defaultFont = -1;
  private readonly fontCodePages = new Map<number, string | undefined>();
  private readonly styles = new Map<number, StyleDef>();
  private fontBeingDefined = -1;
  private fontCharset = -1;
  private styleBeingDefined = -1;
  private styleLevel: number | undefined;
  /** Bytes of the current run, decoded together (a double-byte character may span two escapes). */
  private pending: number[] = [];
  private skipFallback = 0;

  private readonly paragraphs: Paragraph[] = [];
  private paragraph = '';
  private paragraphStyle = -1;
  private outlineLevel: number | undefined;
  private note = '';
  private noteIsEndnote = false;
  private readonly footnotes: WordNote[] = [];
  private readonly endnotes: WordNote[] = [];
  private textBoxes = '';
  private readonly meta = { title: '', author: '', description: '', fontName: '', styleName: '' };

  private readonly input: Buffer;

  constructor(input: Buffer) {
    this.input = input;
    this.group = {
      sink: 'body',
      uc: 1,
      codePage: this.documentCodePage,
      hidden: false,
      ignorable: false,
      started: false,
    };
  }

  read(): RtfDocument {
    const input = this.input;
    const n = input.length;
    let i = 0;
    while (i < n) {
      const c = input[i]!;
      if (c === 0x7b) {
        this.flush();
        this.openGroup();
        i++;
      } else if (c === 0x7d) {
        this.flush();
        this.closeGroup();
        i++;
      } else if (c === 0x5c) {
        i = this.controlAt(i);
      } else if (c === 0x0d || c === 0x0a) {
        i++;
      } else if (c === 0x2a && input[i - 1] === 0x7b) {
        // "{*\destination": a writer (Aspose) that forgot the backslash of \*.
        this.group.ignorable = true;
        i++;
      } else {
        i = this.textAt(i);
      }
    }
    this.flush();
    while (this.stack.length) this.closeGroup();
    this.endParagraph();
    return this.document();
  }

  /** Reads the run of plain text at i (up to the next brace, backslash or line end); returns its end. */
  private textAt(i: number): number {
    const input = this.input;
    let end = i;
    let ascii = true;
    for (; end < input.length; end++) {
      const c = input[end]!;
      if (c === 0x5c || c === 0x7b || c === 0x7d || c === 0x0d || c === 0x0a) break;
      if (c >= 0x80) ascii = false;
    }
    while (this.skipFallback > 0 && i < end) {
      this.skipFallback--;
      i++;
    }
    if (i === end || this.group.sink === 'none') return end;
    // Most runs are ASCII, the same in every code page: taken as they are, without decoding.
    if (ascii && !this.pending.length) this.emit(input.toString('latin1', i, end));
    else for (let k = i; k < end; k++) this.pending.push(input[k]!);
    return end;
  }

  // ---------- groups ----------

  private openGroup(): void {
    if (this.stack.length >= PARSE_LIMITS.nestingDepth) {
      throw new ParseError('fileTooComplex', `RTF groups nested deeper than ${PARSE_LIMITS.nestingDepth}`);
    }
    const parent = this.group;
    this.stack.push(parent);
    // A group in the style sheet defines a style; one in \info holds a property, read only if named.
    const sink = parent.sink === 'styleSheet' ? 'styleName' : parent.sink === 'info' ? 'none' : parent.sink;
    this.group = { ...parent, sink, ignorable: false, started: false };
    if (sink === 'styleName') {
      this.styleBeingDefined = -1;
      this.styleLevel = undefined;
      this.meta.styleName = '';
    }
    this.skipFallback = 0;
  }

  private closeGroup(): void {
    const closed = this.group;
    const parent = this.stack.pop();
    if (!parent) return;
    this.group = parent;
    this.skipFallback = 0;
    if (closed.sink === 'fontName') this.endFontDefinition();
    if (closed.sink === parent.sink) return;
    if (closed.sink === 'note') this.endNote();
    else if (closed.sink === 'styleName') this.endStyleDefinition();
    else if (closed.sink === 'textBox') this.textBoxes += '\n';
  }

  // ---------- control words ----------

  /** Reads the control word or symbol at i; returns the index after it. */
  private controlAt(i: number): number {
    const input = this.input;
    const next = input[i + 1];
    if (next === undefined) return i + 1;
    // \'hh: a byte of the run's code page.
    if (next === 0x27) {
      const hex = input.subarray(i + 2, i + 4).toString('latin1');
      if (this.skipFallback > 0) this.skipFallback--;
      else if (/^[0-9a-f]{2}$/i.test(hex) && this.group.sink !== 'none') this.pending.push(parseInt(hex, 16));
      return i + 4;
    }
    if (!isLetter(next)) {
      this.flush();
      this.controlSymbol(String.fromCharCode(next));
      return i + 2;
    }
    let j = i + 1;
    while (j < input.length && isLetter(input[j]!) && j - i < 34) j++;
    const word = input.subarray(i + 1, j).toString('latin1');
    let param: number | undefined;
    const numberStart = j;
    if (input[j] === 0x2d) j++;
    while (j < input.length && input[j]! >= 0x30 && input[j]! <= 0x39 && j - numberStart < 11) j++;
    if (j > numberStart && !(j === numberStart + 1 && input[numberStart] === 0x2d)) {
      param = Number(input.subarray(numberStart, j).toString('latin1'));
    } else {
      j = numberStart;
    }
    // One space after a control word belongs to it.
    if (input[j] === 0x20) j++;
    if (word === 'bin') {
      this.flush();
      return j + Math.max(0, param ?? 0);
    }
    if (word === 'u' && param !== undefined) {
      if (this.skipFallback > 0) {
        this.skipFallback--;
        return j;
      }
      this.flush();
      this.emit(String.fromCharCode(param < 0 ? param + 65536 : param));
      this.skipFallback = this.group.uc;
      return j;
    }
    if (this.skipFallback > 0) {
      this.skipFallback--;
      return j;
    }
    this.flush();
    this.controlWord(word, param);
    return j;
  }

  private controlSymbol(symbol: string): void {
    switch (symbol) {
      case '*':
        this.group.ignorable = true;
        return;
      case '~':
        this.emit('\u00a0');
        return;
      case '_':
        this.emit('\u2011');
        return;
      case '\\':
      case '{':
      case '}':
        this.emit(symbol);
        return;
      // A backslash before a line end is a paragraph end (TextEdit writes its line breaks so).
      case '\n':
      case '\r':
        this.controlWord('par', undefined);
        return;
      // \- is an optional hyphen; \: a subentry mark. Neither is text.
    }
  }

  private controlWord(word: string, param: number | undefined): void {
    const group = this.group;
    const first = !group.started;
    group.started = true;
    if (first && this.startsDestination(word)) return;
    if (group.sink === 'none') return;
    const symbol = SYMBOLS.get(word);
    if (symbol !== undefined) {
      if (symbol === '\n' && group.sink === 'body') this.endParagraph();
      else this.emit(symbol);
      return;
    }
    switch (word) {
      case 'par':
        if (group.sink === 'body') this.endParagraph();
        else if (group.sink === 'note' || group.sink === 'textBox') this.emit('\n');
        return;
      case 'pard':
        this.paragraphStyle = -1;
        this.outlineLevel = undefined;
        return;
      case 's':
        if (group.sink === 'styleName') this.styleBeingDefined = param ?? 0;
        else this.paragraphStyle = param ?? 0;
        return;
      case 'outlinelevel':
        if (group.sink === 'styleName') this.styleLevel = param;
        else this.outlineLevel = param;
        return;
      case 'uc':
        group.uc = Math.max(0, Math.min(param ?? 1, 8));
        return;
      case 'ansicpg':
        this.documentCodePage = (param !== undefined && codePageOfAnsiCpg(param)) || this.documentCodePage;
        group.codePage = this.documentCodePage;
        return;
      case 'mac':
        this.documentCodePage = 'macintosh';
        group.codePage = this.documentCodePage;
        return;
      case 'deff':
        this.defaultFont = param ?? 0;
        return;
      case 'f':
        if (group.sink === 'fontName') this.fontBeingDefined = param ?? 0;
        else group.codePage = this.codePageOfFont(param ?? this.defaultFont);
        return;
      case 'fcharset':
        if (group.sink === 'fontName') this.fontCharset = param ?? 0;
        return;
      case 'plain':
        group.hidden = false;
        group.codePage = this.codePageOfFont(this.defaultFont);
        return;
      case 'v':
        group.hidden = param !== 0;
        return;
      case 'ftnalt':
        if (group.sink === 'note') this.noteIsEndnote = true;
        return;
    }
  }

  /** Whether the group's first control word makes it a destination, and where its text goes. */
  private startsDestination(word: string): boolean {
    const group = this.group;
    const within = this.stack[this.stack.length - 1]?.sink;
    switch (word) {
      case 'fonttbl':
        group.sink = 'fontName';
        return true;
      case 'stylesheet':
        group.sink = 'styleSheet';
        return true;
      case 'info':
        group.sink = 'info';
        return true;
      case 'title':
      case 'author':
        group.sink = within === 'info' ? word : 'none';
        return true;
      case 'doccomm':
      case 'subject':
        group.sink = within === 'info' && !this.meta.description ? 'description' : 'none';
        return true;
      case 'footnote':
        group.sink = within === 'body' ? 'note' : 'none';
        this.note = '';
        this.noteIsEndnote = false;
        return true;
      case 'shptxt':
        group.sink = within === 'body' ? 'textBox' : 'none';
        return true;
      case 'upr':
        // Two versions of the same text: the 8-bit one first, then \ud's Unicode one. Only the latter is read.
        this.uprSink = group.sink;
        group.sink = 'none';
        return true;
      case 'ud':
        group.sink = this.uprSink;
        return true;
    }
    if (READ_THROUGH.has(word)) return false;
    if (group.ignorable || SKIPPED.has(word)) {
      group.sink = 'none';
      return true;
    }
    return false;
  }

  private uprSink: Sink = 'none';

  // ---------- text ----------

  private flush(): void {
    if (!this.pending.length) return;
    const bytes = Uint8Array.from(this.pending);
    this.pending = [];
    this.emit(decoderFor(this.group.codePage).decode(bytes));
  }

  private emit(text: string): void {
    const group = this.group;
    switch (group.sink) {
      case 'body':
        if (!group.hidden) this.paragraph += text;
        return;
      case 'note':
        if (!group.hidden) this.note += text;
        return;
      case 'textBox':
        if (!group.hidden) this.textBoxes += text;
        return;
      case 'fontName': {
        // Entries without groups of their own (TextEdit) end at their semicolon.
        const end = text.indexOf(';');
        if (this.meta.fontName.length < 4096) this.meta.fontName += end === -1 ? text : text.slice(0, end);
        if (end !== -1) this.endFontDefinition();
        return;
      }
      case 'title':
      case 'author':
      case 'description':
      case 'styleName':
        if (this.meta[group.sink].length < 4096) this.meta[group.sink] += text;
        return;
      default:
        return;
    }
  }

  private endParagraph(): void {
    const text = this.paragraph;
    this.paragraph = '';
    if (this.paragraphs.length >= PARSE_LIMITS.blocksPerBook * 4) {
      throw new ParseError('fileTooComplex', `More than ${PARSE_LIMITS.blocksPerBook * 4} RTF paragraphs`);
    }
    const level = this.outlineLevel ?? this.styles.get(this.paragraphStyle)?.level;
    this.paragraphs.push(level !== undefined && level < 9 && text.trim() ? { text, level } : { text });
  }

  private endNote(): void {
    const notes = this.noteIsEndnote ? this.endnotes : this.footnotes;
    const kind = this.noteIsEndnote ? 'e' : 'f';
    notes.push({ label: String(notes.length + 1), text: this.note.trim() });
    this.paragraph += `${NOTE_MARK_OPEN}${kind}${notes.length - 1}${NOTE_MARK_CLOSE}`;
    this.note = '';
  }

  private endFontDefinition(): void {
    if (this.fontBeingDefined >= 0) {
      const name = this.meta.fontName.trim();
      this.fontCodePages.set(this.fontBeingDefined, codePageOfCharset(this.fontCharset) ?? codePageOfFontName(name));
    }
    this.fontBeingDefined = -1;
    this.fontCharset = -1;
    this.meta.fontName = '';
  }

  private endStyleDefinition(): void {
    const name = this.meta.styleName.replace(/;\s*$/, '').trim();
    const named = HEADING_NAME.exec(name);
    const level = this.styleLevel ?? (named ? Number(named[1]) - 1 : undefined);
    if (this.styleBeingDefined >= 0) this.styles.set(this.styleBeingDefined, { name, level });
    this.styleBeingDefined = -1;
    this.styleLevel = undefined;
    this.meta.styleName = '';
  }

  private codePageOfFont(font: number): string {
    return this.fontCodePages.get(font) ?? this.documentCodePage;
  }

  // ---------- result ----------

  private document(): RtfDocument {
    // Headings carry their depth below the top level the document uses, one mark per level (three
    // at most): the top level becomes chapters, the two below entries of the contents.
    let top = Infinity;
    for (const p of this.paragraphs) if (p.level !== undefined && p.level < top) top = p.level;
    const main = this.paragraphs
      .map((p) =>
        p.level !== undefined && p.level - top < 3 ? `${RTF_HEADING_MARK.repeat(p.level - top + 1)}${p.text}` : p.text,
      )
      .join('\n');
    const clean = (s: string) => s.replace(/\s+/g, ' ').trim() || undefined;
    return {
      main,
      footnotes: this.footnotes,
      endnotes: this.endnotes,
      textBoxes: this.textBoxes,
      headerTextBoxes: '',
      title: clean(this.meta.title),
      author: clean(this.meta.author),
      description: clean(this.meta.description),
    };
  }
}

const isLetter = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);

/** Reads an RTF document into Word's stories; throws ParseError for what cannot be read. */
export function readRtf(input: Buffer): RtfDocument {
  if (!isRtf(input)) throw new ParseError('fileCorrupted', 'Not an RTF document');
  return new RtfReader(input).read();
}
