/**
 * The title, creators and description of an XMP packet, found with indexOf and linear regular
 * expressions: the packet is hostile input (metadata-pdf.ts passes at most 1 MiB).
 */
import type { RawMetadata } from './metadata-clean.ts';

export function decodePdfXml(data: Buffer): string {
  if (data[0] === 0xfe && data[1] === 0xff) return new TextDecoder('utf-16be').decode(data.subarray(2));
  if (data[0] === 0xff && data[1] === 0xfe) return new TextDecoder('utf-16le').decode(data.subarray(2));
  return data.toString('utf8');
}

/** The inner text of the first element named `name` (prefix included), found with indexOf (linear). */
function inner(xml: string, name: string, from = 0): string | undefined {
  const open = new RegExp(`<${name}(?=[\\s/>])`, 'g');
  open.lastIndex = from;
  const start = open.exec(xml);
  if (!start) return undefined;
  const tagEnd = xml.indexOf('>', start.index);
  if (tagEnd === -1 || xml[tagEnd - 1] === '/') return undefined;
  const close = xml.indexOf(`</${name}>`, tagEnd);
  return close === -1 ? undefined : xml.slice(tagEnd + 1, close);
}

const xmlText = (text: string) =>
  text
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#x([0-9a-f]+);/gi, (_m, h: string) => safeCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_m, d: string) => safeCodePoint(Number(d)))
    .replace(/&amp;/g, '&');
const safeCodePoint = (code: number) =>
  code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '';

/** The items of an rdf:Alt/Seq/Bag, x-default first (found with indexOf: linear on any input). */
function rdfItems(block: string | undefined): string[] {
  if (block === undefined) return [];
  const items: { lang: string; text: string }[] = [];
  for (let at = 0; items.length < 64;) {
    const open = block.indexOf('<rdf:li', at);
    const tagEnd = open === -1 ? -1 : block.indexOf('>', open);
    const close = tagEnd === -1 ? -1 : block.indexOf('</rdf:li>', tagEnd);
    if (close === -1) break;
    const lang = /xml:lang=["']([^"']*)["']/.exec(block.slice(open, tagEnd))?.[1] ?? '';
    items.push({ lang, text: xmlText(block.slice(tagEnd + 1, close)) });
    at = close + 9;
  }
  if (items.length === 0 && !block.includes('<')) return [xmlText(block)];
  return [...items.filter((i) => i.lang === 'x-default'), ...items.filter((i) => i.lang !== 'x-default')].map(
    (i) => i.text,
  );
}

/** A simple XMP property, as an element or as an attribute of rdf:Description. */
function xmpProperty(xml: string, name: string): string | undefined {
  const element = inner(xml, name);
  if (element !== undefined) return xmlText(element);
  const attribute = new RegExp(`\\s${name}\\s*=\\s*"([^"]*)"`).exec(xml);
  return attribute ? xmlText(attribute[1]!) : undefined;
}

export function readXmp(xml: string): RawMetadata {
  return {
    titles: rdfItems(inner(xml, 'dc:title')).slice(0, 1),
    authors: [rdfItems(inner(xml, 'dc:creator')).join(', ')],
    descriptions: rdfItems(inner(xml, 'dc:description')).slice(0, 1),
    producers: [xmpProperty(xml, 'xmp:CreatorTool'), xmpProperty(xml, 'pdf:Producer')],
  };
}
