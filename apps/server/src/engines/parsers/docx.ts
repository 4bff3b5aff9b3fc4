/**
 * DOCX through mammoth (→ HTML) and our HTML → blocks. Word heading styles define the chapters;
 * footnotes and endnotes come out of mammoth as lists we turn into linked footnote blocks.
 */
import mammoth from 'mammoth';
import type { BlockDraft } from './blocks.ts';
import { htmlToBlocks } from './blocks.ts';
import { BookBuilder, shorten } from './builder.ts';
import { ParseError } from './errors.ts';
import { imageInfo } from './image-info.ts';
import { byLocalName, findFirst, parseMarkup, textContent } from './markup.ts';
import type { BookImage, BookParser, ParseOptions, ParsedBook } from './types.ts';
import { SafeZip } from './zip.ts';

const IMAGE_SCHEME = 'yidu-image:';
const NOTE_ID = /^(footnote|endnote)-\d+$/;
const MAX_DOCUMENT_XML_BYTES = 40 * 1024 * 1024;

export const docxParser: BookParser = {
  format: 'docx',
  async parse(input: Buffer, options: ParseOptions = {}): Promise<ParsedBook> {
    const started = performance.now();
    if (input.length === 0) throw new ParseError('emptyFile', 'The file is empty');
    // mammoth inflates with its own JSZip: check the declared sizes (zip bombs) before handing it over.
    const zip = await SafeZip.open(input);
    if (!zip.has('word/document.xml')) throw new ParseError('fileCorrupted', 'No word/document.xml in the archive');
    // mammoth builds a full DOM: memory is about 80× the XML size (12 MB of XML → ~1 GB peak).
    const declared = zip.declaredSize('word/document.xml');
    if (declared !== undefined && declared > MAX_DOCUMENT_XML_BYTES) {
      throw new ParseError('fileTooComplex', `word/document.xml is ${declared} bytes`);
    }
    const book = new BookBuilder();
    const core = await zip.readText('docProps/core.xml').catch(() => undefined);
    if (core && !/<!ENTITY/i.test(core)) {
      const root = parseMarkup(core);
      const field = (name: string) => {
        const el = findFirst(root, byLocalName(name));
        return el ? textContent(el) : undefined;
      };
      book.metadata = {
        title: field('title'),
        author: field('creator'),
        language: field('language'),
        description: field('description'),
      };
    }
    const documentXml = await zip.readText('word/document.xml');
    if (documentXml && /<!ENTITY/i.test(documentXml.slice(0, 65536))) {
      throw new ParseError('fileTooComplex', 'The document declares XML entities, which we refuse');
    }
    options.onProgress?.(0.1);

    const images: BookImage[] = [];
    let html: string;
    try {
      const result = await mammoth.convertToHtml(
        { buffer: input },
        {
          externalFileAccess: false,
          convertImage: mammoth.images.imgElement(async (image) => {
            const data = await image.readAsBuffer();
            const info = imageInfo(data);
            if (!info || data.length > 20 * 1024 * 1024) return { src: '' };
            const id = `img${images.length + 1}`;
            const entry: BookImage = { id, data, mediaType: info.mediaType };
            if (info.width) entry.width = info.width;
            if (info.height) entry.height = info.height;
            images.push(entry);
            return { src: `${IMAGE_SCHEME}${id}` };
          }),
        },
      );
      html = result.value;
    } catch (error) {
      throw new ParseError('fileCorrupted', `Unreadable DOCX: ${(error as Error).message}`, { cause: error });
    }
    options.onProgress?.(0.7);
    book.images.push(...images);

    const drafts: BlockDraft[] = [];
    htmlToBlocks(parseMarkup(html), {
      resolveImage: (src) => (src.startsWith(IMAGE_SCHEME) ? src.slice(IMAGE_SCHEME.length) : undefined),
      resolveNoteLink: (href) => {
        const id = href.startsWith('#') ? href.slice(1) : '';
        return NOTE_ID.test(id) ? id : undefined;
      },
      noteKeyOf: (e) => (e.name === 'li' && NOTE_ID.test(e.attrs.id ?? '') ? e.attrs.id : undefined),
      skip: (e) => e.name === 'a' && /^#(footnote|endnote)-ref-/.test(e.attrs.href ?? ''),
      emit: (block) => {
        // Word's HTML-form boundaries are artefacts, not text.
        if (/^(Top|Bottom) of Form$/.test(block.text)) return;
        if (block.type === 'footnote' && !block.noteLabel && block.noteKey) {
          block.noteLabel = block.noteKey.replace(/^\D+-/, '');
        }
        drafts.push(block);
      },
    });
    if (!drafts.some((d) => d.text.trim() || d.imageId)) {
      throw new ParseError('noTextFound', 'The document contains no text');
    }
    splitByHeadings(book, drafts);
    options.onProgress?.(1);
    return book.finish('docx', started);
  },
};

/**
 * Chapters start at the highest heading level used at least twice (a single Heading 1 is usually the
 * document title). Without headings a long document is cut into parts so chapters stay readable.
 */
export function splitByHeadings(book: BookBuilder, drafts: BlockDraft[]): void {
  const counts = new Map<number, number>();
  for (const d of drafts) if (d.type === 'heading' && d.level) counts.set(d.level, (counts.get(d.level) ?? 0) + 1);
  const level = [...counts.keys()].sort((a, b) => a - b).find((l) => counts.get(l)! >= 2);
  if (level !== undefined) {
    book.startChapter('');
    for (const d of drafts) {
      if (d.type === 'heading' && d.level !== undefined && d.level <= level) {
        book.startChapter(shorten(d.text, 100), 1);
      }
      book.add(d);
    }
    return;
  }
  const notes = drafts.filter((d) => d.type === 'footnote');
  const body = drafts.filter((d) => d.type !== 'footnote');
  let chars = 0;
  let part = 0;
  for (const d of body) {
    if (part === 0 || chars > 40000) {
      part++;
      book.startChapter(part === 1 ? '' : `Part ${part}`);
      chars = 0;
    }
    book.add(d);
    chars += d.text.length;
  }
  for (const d of notes) book.add(d);
  if (part > 1 && !book.chapters[0]!.title) book.chapters[0]!.title = 'Part 1';
}
