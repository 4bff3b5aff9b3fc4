/** Format → parser, and parseBook(): sniff the bytes, then parse with the right parser. */
import { docParser } from './doc/doc.ts';
import { docxParser } from './docx/docx.ts';
import { epubParser } from './epub/epub.ts';
import { ParseError } from './errors.ts';
import { pdfParser } from './pdf/pdf.ts';
import { sniffFormat } from './sniff.ts';
import { txtParser } from './txt/txt.ts';
import type { BookFormat, BookParser, ParseOptions, ParsedBook } from './types.ts';

const parsers = new Map<BookFormat, BookParser>([
  ['epub', epubParser],
  ['txt', txtParser],
  ['docx', docxParser],
  ['doc', docParser],
  ['pdf', pdfParser],
]);

export function registerParser(parser: BookParser): void {
  parsers.set(parser.format, parser);
}

export function getParser(format: BookFormat): BookParser {
  const parser = parsers.get(format);
  if (!parser) throw new ParseError('unsupportedFileType', `No parser for ${format}`);
  return parser;
}

export async function parseBook(input: Buffer, options: ParseOptions = {}): Promise<ParsedBook> {
  return getParser(sniffFormat(input)).parse(input, options);
}
