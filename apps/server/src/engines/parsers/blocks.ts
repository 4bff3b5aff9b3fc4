/**
 * Turns an (X)HTML tree into content blocks. Used by EPUB (publisher XHTML); DOCX has its own
 * streaming walker (docx-body.ts) that produces the same drafts. Output is rebuilt from a whitelist, so hostile markup (scripts, event handlers, javascript:
 * links, remote images) cannot survive: we never copy attributes, only text and a few inline tags.
 */
import type { BlockType, PdfRegion } from './types.ts';
import { escapeHtml, localName } from './markup.ts';
import type { MarkupElement, MarkupNode } from './markup.ts';
import {
  altText,
  chooseSwitchBranch,
  CJK_GAP,
  HEADING,
  IGNORED,
  INLINE_TAGS,
  isBackLink,
  isBlockName,
  isHidden,
  isLineGroup,
  isLineNumber,
  startsVerseLine,
  textContentLength,
} from './markup-elements.ts';
import { svgTitle } from './svg/svg-safe.ts';
import { mathText } from './mathml.ts';

/** A block before ids exist; note links are keys resolved by `finalizeBook`. */
export interface BlockDraft {
  type: BlockType;
  text: string;
  html?: string;
  level?: number;
  imageId?: string;
  /** Footnote blocks: the key other blocks use to reference it. */
  noteKey?: string;
  noteLabel?: string;
  noteRefKeys?: string[];
  pdfPage?: number;
  pdfRegions?: PdfRegion[];
}

export interface ConvertContext {
  /** Returns an image id for a src (already resolved and stored), or undefined to drop the image. */
  resolveImage(src: string): string | undefined;
  /** Returns a note key when an href points at a footnote/endnote. */
  resolveNoteLink(href: string, anchor: MarkupElement): string | undefined;
  /** Returns a note key when this element is a footnote/endnote body. */
  noteKeyOf(element: MarkupElement): string | undefined;
  /** Alt texts of the book's formulas that describe none of them (mathml.ts `repeatedAltTexts`). */
  mathPlaceholders?: ReadonlySet<string>;
  /** The label a note's markers show ("60"), when its own text does not start with one. */
  noteLabelOf?(noteKey: string): string | undefined;
  /**
   * Returns an image id for an inline `<svg>` that is a picture (it draws shapes), or undefined to read
   * it as before: its text, and the pictures it places.
   */
  resolveSvg?(svg: MarkupElement): string | undefined;
  /** Called with the ids found in a block (or on a container) before the block is emitted. */
  onAnchors?(ids: string[]): void;
  /** Elements to ignore entirely (navigation, backlinks...). */
  skip?(element: MarkupElement): boolean;
  emit(block: BlockDraft): void;
}

/** Placeholder href for a note link; finalizeBook swaps it for `#<block id>`. */
export const NOTE_LINK_MARK = '\u0001';

interface InlineBuffer {
  /** Inside a table cell, paragraph breaks become spaces so a row stays one line. */
  cellDepth: number;
  text: string;
  html: string;
  tagged: boolean;
  noteRefs: string[];
  ids: string[];
  /** Pictures met in the block, with their text alternative (alt, an SVG's title). */
  images: { id: string; alt: string }[];
}

const newBuffer = (): InlineBuffer => ({
  cellDepth: 0,
  text: '',
  html: '',
  tagged: false,
  noteRefs: [],
  ids: [],
  images: [],
});

export function cleanText(text: string, preserve = false): string {
  if (preserve) return text.replace(/^\n+|\s+$/g, '');
  return text
    .replace(/[ \t\r\f\v\u00a0]*\n[ \t\r\f\v\u00a0]*/g, '\n')
    .replace(/[ \t\r\f\v]+/g, ' ')
    .replace(CJK_GAP, '$1')
    .trim();
}

export function htmlToBlocks(root: MarkupElement, ctx: ConvertContext): void {
  const blockCache = new WeakMap<MarkupElement, boolean>();
  const hasBlockDescendant = (e: MarkupElement): boolean => {
    const cached = blockCache.get(e);
    if (cached !== undefined) return cached;
    let found = false;
    for (const c of e.children) {
      if (c.kind !== 'element') continue;
      const name = localName(c.name);
      if (isBlockName(name) || hasBlockDescendant(c)) {
        found = true;
        break;
      }
    }
    blockCache.set(e, found);
    return found;
  };

  const appendInline = (node: MarkupNode, buf: InlineBuffer, preserve: boolean, inNote: boolean): void => {
    if (node.kind === 'text') {
      const text = preserve ? node.text : node.text.replace(/\s+/g, ' ');
      buf.text += text;
      buf.html += escapeHtml(text);
      return;
    }
    const e = node;
    const name = localName(e.name);
    if (IGNORED.has(name) || isHidden(e) || ctx.skip?.(e)) return;
    if (e.attrs.id) buf.ids.push(e.attrs.id);
    if (name === 'br') {
      const sep = buf.cellDepth > 0 ? ' ' : '\n';
      buf.text += sep;
      buf.html += sep;
      return;
    }
    if (name === 'img' || name === 'image') {
      const src = e.attrs.src ?? e.attrs['xlink:href'] ?? e.attrs.href;
      const id = src ? ctx.resolveImage(src) : undefined;
      if (id) buf.images.push({ id, alt: altText(e.attrs.alt ?? e.attrs.title) });
      return;
    }
    if (name === 'svg') {
      const picture = ctx.resolveSvg?.(e);
      const placed = buf.images.length;
      for (const c of e.children) if (c.kind === 'element') appendInline(c, buf, preserve, inNote);
      // A drawing is one picture: what it places is in it. Its words stay readable as text.
      if (picture) buf.images.splice(placed, Infinity, { id: picture, alt: svgTitle(e) ?? '' });
      return;
    }
    if ((name === 'a' && isBackLink(e, inNote)) || (name === 'span' && isLineNumber(e))) return;
    if (name === 'span' && buf.cellDepth === 0 && startsVerseLine(e) && buf.text && !buf.text.endsWith('\n')) {
      buf.text = buf.text.replace(/[ \t]+$/, '') + '\n';
      buf.html = buf.html.replace(/[ \t]+$/, '') + '\n';
    }
    if (name === 'math') {
      const text = mathText(e, ctx.mathPlaceholders);
      buf.text += text;
      buf.html += escapeHtml(text);
      return;
    }
    if (name === 'switch') {
      const branch = chooseSwitchBranch(e);
      if (branch) for (const c of branch.children) appendInline(c, buf, preserve, inNote);
      return;
    }
    // SVG places each text (and positioned span) on its own: words of two must not run together.
    const svgText = name === 'text' || (name === 'tspan' && ('x' in e.attrs || 'y' in e.attrs || 'dy' in e.attrs));
    if (svgText && buf.text && !/\s$/.test(buf.text)) {
      buf.text += ' ';
      buf.html += ' ';
    }
    if (name === 'rt' || name === 'rp') {
      // Furigana/annotations go to the markup only: the text must read as the base text alone.
      const inner = newBuffer();
      for (const c of e.children) appendInline(c, inner, preserve, inNote);
      buf.html += `<${name}>${inner.html}</${name}>`;
      buf.tagged = true;
      return;
    }
    const cell = name === 'td' || name === 'th';
    const blockish = isBlockName(name) && !cell;
    const breakLine = () => {
      if (!buf.text) return;
      if (buf.cellDepth > 0) {
        if (!/[\n\t ]$/.test(buf.text)) {
          buf.text += ' ';
          buf.html += ' ';
        }
        return;
      }
      buf.text = buf.text.replace(/[ \t]+$/, '');
      buf.html = buf.html.replace(/[ \t]+$/, '');
      if (buf.text.endsWith('\n')) return;
      buf.text += '\n';
      buf.html += '\n';
    };
    if (blockish) breakLine();
    let open = '';
    let close = '';
    if (name === 'ruby') {
      open = '<ruby>';
      close = '</ruby>';
    } else if (INLINE_TAGS[name]) {
      open = `<${INLINE_TAGS[name]}>`;
      close = `</${INLINE_TAGS[name]}>`;
    } else if (name === 'a' && e.attrs.href && !inNote) {
      const key = ctx.resolveNoteLink(e.attrs.href, e);
      if (key) {
        buf.noteRefs.push(key);
        open = `<a href="#${NOTE_LINK_MARK}${escapeHtml(key)}${NOTE_LINK_MARK}">`;
        close = '</a>';
      }
    } else if (name === 'td' || name === 'th') {
      if (buf.text && !/[\t\n]$/.test(buf.text)) {
        buf.text += '\t';
        buf.html += '\t';
      }
    }
    if (open) {
      buf.html += open;
      buf.tagged = true;
    }
    if (cell) buf.cellDepth++;
    for (const c of e.children) appendInline(c, buf, preserve || name === 'pre', inNote);
    if (cell) buf.cellDepth--;
    buf.html += close;
    if (blockish) breakLine();
  };

  const emitBuffer = (buf: InlineBuffer, type: BlockType, level?: number, preserve = false): void => {
    if (buf.ids.length) ctx.onAnchors?.(buf.ids);
    const text = cleanText(buf.text, preserve);
    if (text) {
      const block: BlockDraft = { type, text };
      if (buf.tagged) {
        const html = cleanText(buf.html, preserve);
        if (html !== escapeHtml(text)) block.html = html;
      }
      if (level) block.level = level;
      if (buf.noteRefs.length) block.noteRefKeys = [...new Set(buf.noteRefs)];
      ctx.emit(block);
    }
    for (const { id, alt } of buf.images) ctx.emit({ type: 'image', text: alt, imageId: id });
  };

  const leaf = (e: MarkupElement, type: BlockType, level?: number): void => {
    const buf = newBuffer();
    const preserve = type === 'code';
    for (const c of e.children) appendInline(c, buf, preserve, false);
    if (e.attrs.id) buf.ids.unshift(e.attrs.id);
    emitBuffer(buf, type, level, preserve);
  };

  const note = (e: MarkupElement, key: string): void => {
    const buf = newBuffer();
    for (const c of e.children) appendInline(c, buf, false, true);
    const text = cleanText(buf.text).replace(/\n+/g, ' ');
    if (!text) return;
    // The number its markers show ("60"), else the label its text starts with, else the marker ("*").
    const marker = ctx.noteLabelOf?.(key);
    const own = /^(\[?\(?\d{1,4}[\])]?\.?|[*†‡§¶]+)\s*/.exec(text)?.[1];
    const label = marker && /\d/.test(marker) ? marker : (own ?? marker);
    const block: BlockDraft = { type: 'footnote', text, noteKey: key };
    if (label) block.noteLabel = label.replace(/[[\]().]/g, '');
    if (buf.tagged) {
      const html = cleanText(buf.html).replace(/\n+/g, ' ');
      if (html !== escapeHtml(text)) block.html = html;
    }
    ctx.emit(block);
  };

  /** Tables used for page layout (one cell per row, or a few rows of long text) are read as text flow. */
  const isLayoutTable = (e: MarkupElement): boolean => {
    let maxCells = 0;
    let rows = 0;
    let longCell = false;
    const visit = (n: MarkupElement, depth: number) => {
      for (const c of n.children) {
        if (c.kind !== 'element') continue;
        const name = localName(c.name);
        if (name === 'table' && depth > 0) continue;
        if (name === 'tr') {
          const cells = c.children.filter(
            (x): x is MarkupElement =>
              x.kind === 'element' && (localName(x.name) === 'td' || localName(x.name) === 'th'),
          );
          maxCells = Math.max(maxCells, cells.length);
          rows++;
          for (const cellEl of cells) {
            if (textContentLength(cellEl) > 300) longCell = true;
          }
        } else visit(c, depth + 1);
      }
    };
    visit(e, 0);
    // Data tables can have long cells too (specifications); only a few rows of long text is layout.
    return maxCells <= 1 || (longCell && rows <= 3);
  };

  const table = (e: MarkupElement): void => {
    if (isLayoutTable(e)) {
      if (e.attrs.id) ctx.onAnchors?.([e.attrs.id]);
      const cells = (n: MarkupElement) => {
        for (const c of n.children) {
          if (c.kind !== 'element') continue;
          const name = localName(c.name);
          if (name === 'td' || name === 'th') flow(c, 'paragraph');
          else if (name !== 'table') cells(c);
          else table(c);
        }
      };
      cells(e);
      return;
    }
    const buf = newBuffer();
    appendInline(e, buf, false, false);
    const text = buf.text
      .split('\n')
      .map((row) =>
        row
          .replace(/[ \u00a0]+/g, ' ')
          .replace(/ ?\t ?/g, '\t')
          .trim(),
      )
      .filter((row) => row.replace(/\t/g, '').trim())
      .join('\n');
    if (buf.ids.length) ctx.onAnchors?.(buf.ids);
    if (text) ctx.emit({ type: 'table', text });
    for (const { id, alt } of buf.images) ctx.emit({ type: 'image', text: alt, imageId: id });
  };

  const flow = (e: MarkupElement, context: BlockType): void => {
    let buf = newBuffer();
    const flush = () => {
      if (buf.text.trim() || buf.images.length || buf.ids.length) emitBuffer(buf, context);
      buf = newBuffer();
    };
    for (const child of e.children) {
      if (child.kind === 'text') {
        appendInline(child, buf, false, false);
        continue;
      }
      const name = localName(child.name);
      if (IGNORED.has(name) || isHidden(child) || ctx.skip?.(child)) continue;
      const noteKey = ctx.noteKeyOf(child);
      if (noteKey) {
        flush();
        if (child.attrs.id) ctx.onAnchors?.([child.attrs.id]);
        note(child, noteKey);
        continue;
      }
      if (name === 'switch') {
        flush();
        const branch = chooseSwitchBranch(child);
        if (branch) flow(branch, context);
        continue;
      }
      if (name === 'math' && child.attrs.display === 'block') {
        // A displayed equation is a paragraph of its own.
        flush();
        appendInline(child, buf, false, false);
        flush();
        continue;
      }
      const heading = HEADING.exec(name);
      if (heading) {
        flush();
        leaf(child, 'heading', Number(heading[1]));
      } else if (name === 'p' || name === 'dt' || name === 'caption' || name === 'figcaption' || name === 'summary') {
        flush();
        if (hasBlockDescendant(child)) {
          if (child.attrs.id) ctx.onAnchors?.([child.attrs.id]);
          flow(child, context);
        } else leaf(child, context);
      } else if (name === 'li') {
        flush();
        if (hasBlockDescendant(child)) {
          if (child.attrs.id) ctx.onAnchors?.([child.attrs.id]);
          flow(child, 'listItem');
        } else leaf(child, 'listItem');
      } else if (name === 'blockquote') {
        flush();
        if (child.attrs.id) ctx.onAnchors?.([child.attrs.id]);
        flow(child, 'quote');
      } else if (name === 'pre') {
        flush();
        leaf(child, 'code');
      } else if (name === 'table') {
        flush();
        table(child);
      } else if (name === 'hr') {
        flush();
      } else if (isLineGroup(child)) {
        // A stanza written as one element per line: one block of lines.
        flush();
        leaf(child, context);
      } else if (isBlockName(name) || hasBlockDescendant(child)) {
        flush();
        if (child.attrs.id) ctx.onAnchors?.([child.attrs.id]);
        flow(child, context);
      } else {
        appendInline(child, buf, false, false);
      }
    }
    flush();
  };

  flow(root, 'paragraph');
}
