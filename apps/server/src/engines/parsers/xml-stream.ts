/**
 * A streaming XML tokenizer (SAX-style) for large machine-written XML such as DOCX's
 * word/document.xml. It never builds a tree: chunks go in, start tags, end tags and text come out,
 * so memory stays flat however long the document is (`parseMarkup` keeps the whole tree, which for a
 * 12 MB document.xml is hundreds of MB). Attributes are parsed only when the handler asks for one,
 * because most Word elements (w:rFonts, w:sz...) are never looked at.
 *
 * Like markup.ts it never fetches anything and never expands custom entities: a DOCTYPE is handed to
 * `onDoctype` so the caller can refuse entity declarations.
 */
import { ParseError } from './errors.ts';
import { PARSE_LIMITS } from './limits.ts';
import { decodeEntities } from './markup.ts';

export interface XmlTag {
  /** The value of an attribute of the current start tag (qualified name, e.g. `w:val`), decoded. */
  attr(name: string): string | undefined;
  /**
   * Asks to jump past this element's end tag without events for its content. True when done (no
   * `close` follows); false when the end is not in the data read so far: events come as usual.
   */
  skip(): boolean;
  /**
   * This element's content as raw XML, jumping past its end tag (no events, no `close`); undefined
   * when that is not possible (end not read yet, or the document uses unusual prefixes, so raw names
   * would not be what the handler expects): events come as usual.
   */
  inner(): string | undefined;
  /** Like inner() but without jumping: events follow unless skip() is called next. */
  peek(): string | undefined;
}

export interface XmlHandler {
  /** A start tag; `tag` is only valid during the call. Self-closing tags get no `close`. */
  open(name: string, tag: XmlTag, selfClosing: boolean): void;
  close(name: string): void;
  /** Character data with entities decoded. Only delivered while `wantsText()` is true (speed). */
  text(text: string): void;
  wantsText(): boolean;
}

export interface XmlStreamOptions {
  /** Namespace URI → the prefix the handler expects, so `<ns0:p>` reads as `<w:p>` (see remap). */
  namespaces?: Record<string, string>;
  onDoctype?(raw: string): void;
  /** A single construct (tag, text run, comment) larger than this is refused: a stream, not a blob. */
  maxPendingChars?: number;
}

const attrPatterns = new Map<string, RegExp>();

function attrPattern(name: string): RegExp {
  let re = attrPatterns.get(name);
  if (!re) {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    re = new RegExp(`(?:^|\\s)${escaped}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`);
    attrPatterns.set(name, re);
  }
  return re;
}

const LT = 60; // <
const GT = 62; // >
const SLASH = 47;

export class XmlStreamReader implements XmlTag {
  private readonly handler: XmlHandler;
  private readonly options: XmlStreamOptions;
  private rest = '';
  private src = '';
  private attrStart = 0;
  private attrEnd = 0;
  private sawRoot = false;
  /** Actual prefix → expected prefix, only when the document uses unusual prefixes. */
  private renames: Map<string, string> | undefined;
  /** Expected prefix → actual prefix, for attribute look-ups under renames. */
  private attrPrefixes: Map<string, string> | undefined;
  // Next quote positions in the string being scanned. Remembered because an apostrophe may be far
  // away (or absent): searching for it again at every tag would make the scan quadratic.
  private nextDouble = -1;
  private nextSingle = -1;
  /** The current start tag: its raw name, where it ends, whether it closes itself. */
  private tagName = '';
  private tagStop = 0;
  private tagSelfClosing = false;
  /** Set by skip()/inner(): where scanning resumes. */
  private jumpTo = -1;
  private endFor = -1;
  private endAt = -1;
  /** Elements open now: past PARSE_LIMITS.nestingDepth the document is refused. */
  private depth = 0;

  constructor(handler: XmlHandler, options: XmlStreamOptions = {}) {
    this.handler = handler;
    this.options = options;
  }

  attr(name: string): string | undefined {
    let wanted = name;
    if (this.attrPrefixes) {
      const colon = name.indexOf(':');
      const actual = colon > 0 ? this.attrPrefixes.get(name.slice(0, colon)) : undefined;
      if (actual !== undefined) wanted = actual ? `${actual}:${name.slice(colon + 1)}` : name.slice(colon + 1);
    }
    const raw = this.src.slice(this.attrStart, this.attrEnd);
    if (!raw.includes(wanted)) return undefined;
    const m = attrPattern(wanted).exec(raw);
    if (!m) return undefined;
    return decodeEntities(m[1] ?? m[2] ?? '');
  }

  skip(): boolean {
    if (this.tagSelfClosing) return true;
    const end = this.elementEnd();
    if (end === -1) return false;
    this.jumpTo = end;
    return true;
  }

  inner(): string | undefined {
    const inner = this.peek();
    if (inner !== undefined && !this.tagSelfClosing) this.jumpTo = this.elementEnd();
    return inner;
  }

  peek(): string | undefined {
    if (this.renames) return undefined;
    if (this.tagSelfClosing) return '';
    const end = this.elementEnd();
    if (end === -1) return undefined;
    return this.src.slice(this.tagStop, end - this.tagName.length - 3);
  }

  /** Where the current element ends (just past its end tag), or -1; computed once per tag. */
  private elementEnd(): number {
    if (this.endFor !== this.tagStop) {
      this.endFor = this.tagStop;
      this.endAt = this.findEnd(this.src, this.tagStop, this.tagName);
    }
    return this.endAt;
  }

  /** The index just past the end tag matching an element opened before `from`, or -1. */
  private findEnd(s: string, from: number, name: string): number {
    const close = `</${name}>`;
    const open = `<${name}`;
    let depth = 1;
    let pos = from;
    for (;;) {
      const end = s.indexOf(close, pos);
      if (end === -1) return -1;
      // The same element nested inside (w:rPr inside w:rPrChange inside w:rPr) must be counted.
      for (let o = s.indexOf(open, pos); o !== -1 && o < end; o = s.indexOf(open, o + open.length)) {
        const c = s.charCodeAt(o + open.length);
        if (c !== GT && c !== SLASH && c > 32) continue;
        const gt = s.indexOf('>', o);
        if (s.charCodeAt(gt - 1) !== SLASH) depth++;
      }
      depth--;
      pos = end + close.length;
      if (depth === 0) return pos;
    }
  }

  /** Feeds the next piece of the document. */
  write(chunk: string): void {
    const s = this.rest ? this.rest + chunk : chunk;
    this.rest = '';
    const consumed = this.scan(s, false);
    if (consumed < s.length) {
      this.rest = s.slice(consumed);
      const max = this.options.maxPendingChars ?? 64 * 1024 * 1024;
      if (this.rest.length > max) throw new ParseError('fileTooComplex', 'An XML construct is too large');
    }
  }

  /** Flushes what is left (a truncated tag is dropped; trailing text is delivered). */
  end(): void {
    const s = this.rest;
    this.rest = '';
    if (s) this.scan(s, true);
  }

  private name(raw: string): string {
    if (!this.renames) return raw;
    const colon = raw.indexOf(':');
    const prefix = colon === -1 ? '' : raw.slice(0, colon);
    const target = this.renames.get(prefix);
    if (target === undefined) return raw;
    const local = colon === -1 ? raw : raw.slice(colon + 1);
    return target ? `${target}:${local}` : local;
  }

  private learnNamespaces(): void {
    const wanted = this.options.namespaces;
    if (!wanted) return;
    const raw = this.src.slice(this.attrStart, this.attrEnd);
    const re = /xmlns(?::([\w.-]+))?\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
    let m: RegExpExecArray | null;
    const renames = new Map<string, string>();
    while ((m = re.exec(raw)) !== null) {
      const prefix = m[1] ?? '';
      const expected = wanted[m[2] ?? m[3] ?? ''];
      if (expected !== undefined && expected !== prefix) renames.set(prefix, expected);
    }
    if (renames.size) {
      this.renames = renames;
      this.attrPrefixes = new Map([...renames].map(([actual, expected]) => [expected, actual]));
    }
  }

  private quote(s: string, pos: number): number {
    if (this.nextDouble !== -2 && this.nextDouble < pos) this.nextDouble = s.indexOf('"', pos);
    if (this.nextDouble === -1) this.nextDouble = -2;
    if (this.nextSingle !== -2 && this.nextSingle < pos) this.nextSingle = s.indexOf("'", pos);
    if (this.nextSingle === -1) this.nextSingle = -2;
    const dq = this.nextDouble;
    const sq = this.nextSingle;
    return dq === -2 ? (sq === -2 ? -1 : sq) : sq === -2 ? dq : Math.min(dq, sq);
  }

  /**
   * The index of the '>' closing a start tag whose name ends at `from`, or -1 if the tag is incomplete.
   * indexOf does the scanning (native and fast); quotes are followed only where there are some.
   */
  private tagEnd(s: string, from: number): number {
    let gt = s.indexOf('>', from);
    if (gt === -1) return -1;
    let pos = from;
    for (;;) {
      const q = this.quote(s, pos);
      if (q === -1 || q > gt) return gt;
      const close = s.indexOf(s[q]!, q + 1);
      if (close === -1) return -1;
      pos = close + 1;
      if (close > gt) {
        gt = s.indexOf('>', pos);
        if (gt === -1) return -1;
      }
    }
  }

  /** Tokenizes `s`; returns how far it got (the rest is an incomplete construct, kept for later). */
  private scan(s: string, final: boolean): number {
    const handler = this.handler;
    const n = s.length;
    let i = 0;
    this.nextDouble = -1;
    this.nextSingle = -1;
    this.endFor = -1;
    while (i < n) {
      const lt = s.indexOf('<', i);
      if (lt === -1) {
        // Text may continue in the next chunk (an entity could be cut in two): keep it unless final.
        if (!final) return i;
        if (handler.wantsText()) handler.text(decodeEntities(s.slice(i)));
        return n;
      }
      if (lt > i && handler.wantsText()) handler.text(decodeEntities(s.slice(i, lt)));
      const next = s.charCodeAt(lt + 1);
      if (next !== next) return final ? n : lt; // NaN: '<' is the last character
      if (next === SLASH) {
        const gt = s.indexOf('>', lt);
        if (gt === -1) return final ? n : lt;
        let raw = s.slice(lt + 2, gt);
        if (raw.charCodeAt(raw.length - 1) <= 32) raw = raw.trim();
        if (this.depth > 0) this.depth--;
        handler.close(this.name(raw));
        i = gt + 1;
        continue;
      }
      if (next === 33 /* ! */) {
        if (s.startsWith('<!--', lt)) {
          const end = s.indexOf('-->', lt + 4);
          if (end === -1) return final ? n : lt;
          i = end + 3;
          continue;
        }
        if (s.startsWith('<![CDATA[', lt)) {
          const end = s.indexOf(']]>', lt + 9);
          if (end === -1) return final ? n : lt;
          if (handler.wantsText()) handler.text(s.slice(lt + 9, end));
          i = end + 3;
          continue;
        }
        if (n - lt < 9 && !final) return lt;
        // DOCTYPE: an internal subset may contain '>' inside brackets.
        let end = s.indexOf('>', lt);
        const bracket = s.indexOf('[', lt);
        if (bracket !== -1 && (end === -1 || bracket < end)) {
          const close = s.indexOf(']>', bracket);
          end = close === -1 ? -1 : close + 1;
        }
        if (end === -1) return final ? n : lt;
        this.options.onDoctype?.(s.slice(lt, end + 1));
        i = end + 1;
        continue;
      }
      if (next === 63 /* ? */) {
        const end = s.indexOf('?>', lt + 2);
        if (end === -1) return final ? n : lt;
        i = end + 2;
        continue;
      }
      // Start tag: its name, then its end, honouring quoted attribute values that may contain '>'.
      let nameEnd = lt + 1;
      for (; nameEnd < n; nameEnd++) {
        const c = s.charCodeAt(nameEnd);
        if (c <= 32 || c === SLASH || c === GT || c === LT) break;
      }
      if (nameEnd >= n) return final ? n : lt;
      if (s.charCodeAt(nameEnd) === LT || nameEnd === lt + 1) {
        // "<<" or "a < b" in text: not a tag.
        if (handler.wantsText()) handler.text('<');
        i = lt + 1;
        continue;
      }
      const j = this.tagEnd(s, nameEnd);
      if (j === -1) return final ? n : lt;
      const selfClosing = s.charCodeAt(j - 1) === SLASH;
      const rawName = s.slice(lt + 1, nameEnd);
      this.src = s;
      this.attrStart = nameEnd;
      this.attrEnd = selfClosing ? j - 1 : j;
      this.tagName = rawName;
      this.tagStop = j + 1;
      this.tagSelfClosing = selfClosing;
      if (!this.sawRoot) {
        this.sawRoot = true;
        this.learnNamespaces();
      }
      i = j + 1;
      if (!selfClosing && ++this.depth > PARSE_LIMITS.nestingDepth) {
        throw new ParseError('fileTooComplex', `Elements nest more than ${PARSE_LIMITS.nestingDepth} deep`);
      }
      handler.open(this.name(rawName), this, selfClosing);
      if (this.jumpTo !== -1) {
        // skip()/inner() went past the element's end tag: it is closed, and no close event follows.
        if (!selfClosing) this.depth--;
        i = this.jumpTo;
        this.jumpTo = -1;
      }
    }
    return n;
  }
}

/** An `onDoctype` that refuses documents declaring entities (billion laughs, external files). */
export function refuseEntities(raw: string): void {
  if (/<!ENTITY/i.test(raw))
    throw new ParseError('fileTooComplex', 'The document declares XML entities, which we refuse');
}

/** Namespace URIs of WordprocessingML parts → the prefixes Word itself writes. */
export const WORD_NAMESPACES: Record<string, string> = {
  'http://schemas.openxmlformats.org/wordprocessingml/2006/main': 'w',
  'http://purl.oclc.org/ooxml/wordprocessingml/main': 'w',
  'http://schemas.openxmlformats.org/officeDocument/2006/relationships': 'r',
  'http://purl.oclc.org/ooxml/officeDocument/relationships': 'r',
  'http://schemas.openxmlformats.org/drawingml/2006/main': 'a',
  'http://purl.oclc.org/ooxml/drawingml/main': 'a',
  'http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing': 'wp',
  'http://purl.oclc.org/ooxml/drawingml/wordprocessingDrawing': 'wp',
  'http://schemas.openxmlformats.org/drawingml/2006/picture': 'pic',
  'http://purl.oclc.org/ooxml/drawingml/picture': 'pic',
  'http://schemas.openxmlformats.org/markup-compatibility/2006': 'mc',
  'http://schemas.openxmlformats.org/officeDocument/2006/math': 'm',
  'http://purl.oclc.org/ooxml/officeDocument/math': 'm',
  'urn:schemas-microsoft-com:vml': 'v',
  'http://schemas.openxmlformats.org/package/2006/relationships': '',
};

/**
 * Decodes a byte stream (UTF-8 unless a BOM or the XML declaration says otherwise) and feeds it to
 * the reader. `onChunk` runs between chunks (progress, cancellation).
 */
export async function feedXml(
  chunks: AsyncIterable<Buffer>,
  reader: XmlStreamReader,
  onChunk?: (bytes: number) => void,
): Promise<void> {
  let decoder: TextDecoder | undefined;
  let bytes = 0;
  for await (const chunk of chunks) {
    if (!decoder) {
      let label = 'utf-8';
      if (chunk[0] === 0xff && chunk[1] === 0xfe) label = 'utf-16le';
      else if (chunk[0] === 0xfe && chunk[1] === 0xff) label = 'utf-16be';
      else {
        const declared = /^\s*<\?xml[^>]*encoding=["']([\w.:-]+)["']/i.exec(chunk.subarray(0, 200).toString('latin1'));
        if (declared) label = declared[1]!.toLowerCase();
      }
      try {
        decoder = new TextDecoder(label);
      } catch {
        // Unknown label: UTF-8 is what such files really are.
        decoder = new TextDecoder('utf-8');
      }
    }
    bytes += chunk.length;
    // The decoder drops a leading BOM itself and keeps a character cut between chunks for the next.
    reader.write(decoder.decode(chunk, { stream: true }));
    onChunk?.(bytes);
  }
  if (decoder) reader.write(decoder.decode());
  reader.end();
}
