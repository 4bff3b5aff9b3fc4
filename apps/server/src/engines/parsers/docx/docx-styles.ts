/**
 * What the DOCX walker needs from word/styles.xml and the relationship parts: which paragraph styles
 * are headings (and of which level), titles, quotes, code or numbered lists, and which character
 * styles make text bold, italic or hidden. Read with the streaming tokenizer because styles.xml can
 * be megabytes (2.5 MB in the Russian contract of the corpus).
 */
import type { XmlHandler, XmlTag } from '../xml-stream.ts';

export interface ParagraphStyleInfo {
  /** 1-9 for headings (Heading N, localized names, outline levels). */
  headingLevel?: number;
  /** The document title style: a heading, but never what chapters are cut at. */
  title: boolean;
  quote: boolean;
  code: boolean;
  /** The style carries list numbering (w:numPr with a non-zero numId). */
  numbered: boolean;
  numId?: string;
  numLevel?: number;
  hidden: boolean;
}

export interface CharacterStyleInfo {
  bold?: boolean;
  italic?: boolean;
  hidden?: boolean;
}

interface RawStyle {
  id: string;
  type: string;
  name?: string;
  basedOn?: string;
  outlineLevel?: number;
  numId?: string;
  numLevel?: number;
  bold?: boolean;
  italic?: boolean;
  hidden?: boolean;
}

/** Word's names for its heading styles ("heading 1", "Überschrift 2", "标题 3"…), in the languages it is sold in. */
export const HEADING_NAME =
  /^(?:heading|заголовок|überschrift|titre|titolo|título|titulo|encabezado|kop|rubrik|otsikko|overskrift|nagłówek|nadpis|címsor|başlık|επικεφαλίδα|標題|标题|見出し|제목)\s*([1-9])$/i;
const TITLE_NAME = /^(?:title|название|заголовок|titel|titre|titolo|título|titulo|tytuł|标题|標題|表題|제목)$/i;
const QUOTE_NAME = /^(?:quote|intense quote|block text|цитата|zitat|citation|cita|引用)$/i;
const CODE_NAME = /^(?:html preformatted|code|source code|macro text)$/i;

/** `<w:b/>`, `<w:b w:val="1"/>` and `<w:b w:val="true"/>` are on; "0", "false", "off" and "none" are off. */
export function onOff(tag: XmlTag): boolean {
  return onOffValue(tag.attr('w:val'));
}

export function onOffValue(value: string | undefined): boolean {
  return value === undefined || !/^(?:0|false|off|none)$/i.test(value);
}

export class DocxStyles {
  private readonly raw = new Map<string, RawStyle>();
  private readonly paragraphCache = new Map<string, ParagraphStyleInfo>();
  private readonly characterCache = new Map<string, CharacterStyleInfo>();
  /** The paragraph style of paragraphs that name none (w:default="1", usually "Normal"). */
  defaultParagraphStyle: string | undefined;

  /** A handler for the streaming tokenizer that fills this object from word/styles.xml. */
  handler(): XmlHandler {
    let current: RawStyle | undefined;
    let skip = 0;
    let inPPr = false;
    let inRPr = false;
    return {
      wantsText: () => false,
      text: () => undefined,
      open: (name, tag, selfClosing) => {
        if (skip) {
          if (!selfClosing) skip++;
          return;
        }
        switch (name) {
          case 'w:style': {
            const id = tag.attr('w:styleId') ?? '';
            current = { id, type: tag.attr('w:type') ?? 'paragraph' };
            if (current.type === 'paragraph' && onOffAttr(tag.attr('w:default'))) this.defaultParagraphStyle = id;
            if (selfClosing) current = undefined;
            return;
          }
          case 'w:latentStyles':
          case 'w:docDefaults':
          case 'w:pPrChange':
          case 'w:rPrChange':
          case 'w:tblPr':
          case 'w:tblStylePr':
          case 'w:trPr':
          case 'w:tcPr':
            // Old revisions of a property, or table formatting: never what the style is now.
            if (!tag.skip()) skip = 1;
            return;
        }
        if (!current) return;
        switch (name) {
          case 'w:name':
            current.name = tag.attr('w:val');
            break;
          case 'w:basedOn':
            current.basedOn = tag.attr('w:val');
            break;
          case 'w:pPr':
            inPPr = !selfClosing;
            break;
          case 'w:rPr':
            inRPr = !selfClosing;
            break;
          case 'w:outlineLvl': {
            const level = Number(tag.attr('w:val'));
            if (inPPr && Number.isInteger(level)) current.outlineLevel = level;
            break;
          }
          case 'w:numId':
            if (inPPr) current.numId = tag.attr('w:val');
            break;
          case 'w:ilvl':
            if (inPPr) current.numLevel = Number(tag.attr('w:val')) || 0;
            break;
          case 'w:b':
            if (inRPr) current.bold = onOff(tag);
            break;
          case 'w:i':
            if (inRPr) current.italic = onOff(tag);
            break;
          case 'w:vanish':
            if (inRPr) current.hidden = onOff(tag);
            break;
        }
      },
      close: (name) => {
        if (skip) {
          skip--;
          return;
        }
        if (name === 'w:style') {
          if (current?.id) this.raw.set(current.id, current);
          current = undefined;
        } else if (name === 'w:pPr') inPPr = false;
        else if (name === 'w:rPr') inRPr = false;
      },
    };
  }

  /** The style and its ancestors (basedOn), nearest first; cycles and absurd depths are cut. */
  private chain(id: string | undefined): RawStyle[] {
    const out: RawStyle[] = [];
    const seen = new Set<string>();
    let cursor = id;
    while (cursor !== undefined && !seen.has(cursor) && out.length < 20) {
      seen.add(cursor);
      const style = this.raw.get(cursor);
      if (!style) break;
      out.push(style);
      cursor = style.basedOn;
    }
    return out;
  }

  paragraph(id: string | undefined): ParagraphStyleInfo {
    const key = id ?? this.defaultParagraphStyle ?? '';
    const cached = this.paragraphCache.get(key);
    if (cached) return cached;
    const chain = this.chain(key || undefined);
    const info: ParagraphStyleInfo = { title: false, quote: false, code: false, numbered: false, hidden: false };
    // Word's built-in styles keep their English name ("heading 1") whatever the UI language; the id
    // is localized ("1", "Titre1"), and custom styles inherit their outline level from the base.
    const own = chain[0];
    const named = (style: RawStyle) => {
      const name = style.name?.trim() ?? '';
      const heading = HEADING_NAME.exec(name) ?? /^heading\s*([1-9])$/i.exec(style.id);
      if (heading) return { level: Number(heading[1]) };
      if (TITLE_NAME.test(name) || /^title$/i.test(style.id)) return { title: true };
      return undefined;
    };
    // A style id with no definition (styles.xml missing or incomplete) still says "Heading2".
    const ownName = own ? named(own) : key ? named({ id: key, type: 'paragraph' }) : undefined;
    if (ownName?.title) info.title = true;
    else if (ownName?.level) info.headingLevel = ownName.level;
    else {
      for (const style of chain) {
        if (style.outlineLevel !== undefined) {
          if (style.outlineLevel >= 0 && style.outlineLevel <= 8) info.headingLevel = style.outlineLevel + 1;
          break;
        }
        const inherited = style === own ? undefined : named(style);
        if (inherited?.level) {
          info.headingLevel = inherited.level;
          break;
        }
      }
    }
    if (info.title) info.headingLevel = 1;
    for (const style of chain) {
      const name = style.name?.trim() ?? '';
      if (QUOTE_NAME.test(name)) info.quote = true;
      if (CODE_NAME.test(name)) info.code = true;
    }
    const numbering = chain.find((s) => s.numId !== undefined);
    info.numbered = numbering !== undefined && numbering.numId !== '0';
    if (info.numbered) {
      info.numId = numbering!.numId;
      info.numLevel = chain.find((st) => st.numLevel !== undefined)?.numLevel ?? 0;
    }
    info.hidden = chain.find((s) => s.hidden !== undefined)?.hidden ?? false;
    this.paragraphCache.set(key, info);
    return info;
  }

  character(id: string): CharacterStyleInfo {
    const cached = this.characterCache.get(id);
    if (cached) return cached;
    const chain = this.chain(id);
    const info: CharacterStyleInfo = {};
    const bold = chain.find((s) => s.bold !== undefined)?.bold;
    const italic = chain.find((s) => s.italic !== undefined)?.italic;
    const hidden = chain.find((s) => s.hidden !== undefined)?.hidden;
    if (bold !== undefined) info.bold = bold;
    if (italic !== undefined) info.italic = italic;
    if (hidden !== undefined) info.hidden = hidden;
    this.characterCache.set(id, info);
    return info;
  }
}

function onOffAttr(value: string | undefined): boolean {
  return value !== undefined && /^(?:1|true|on)$/i.test(value);
}

export interface Relationship {
  type: string;
  target: string;
  external: boolean;
}

/** Collects `Relationship` entries of a .rels part (rId → target). */
export function relationshipsHandler(into: Map<string, Relationship>): XmlHandler {
  return {
    wantsText: () => false,
    text: () => undefined,
    open: (name, tag) => {
      if (name !== 'Relationship' && !name.endsWith(':Relationship')) return;
      const id = tag.attr('Id');
      const target = tag.attr('Target');
      if (!id || target === undefined) return;
      into.set(id, {
        type: tag.attr('Type') ?? '',
        target,
        external: (tag.attr('TargetMode') ?? '').toLowerCase() === 'external',
      });
    },
    close: () => undefined,
  };
}
