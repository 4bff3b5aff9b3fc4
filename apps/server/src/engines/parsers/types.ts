/**
 * The content model every book format is turned into (DESIGN §5): book → chapters (the table of
 * contents) → blocks with stable ids, plus the images the blocks point at. Translations, highlights and
 * bookmarks anchor to block ids and character offsets in `text`, so ids must be deterministic: parsing
 * the same file twice gives the same ids.
 */
import type { GeneratedTitle } from '@yidu/shared/contents';
import type { OcrEngine } from '../ocr/types.ts';

export type { GeneratedTitle };

export type BookFormat = 'epub' | 'pdf' | 'docx' | 'doc' | 'txt';

export const BOOK_FORMATS: readonly BookFormat[] = ['epub', 'pdf', 'docx', 'doc', 'txt'];

export type BlockType =
  'heading' | 'paragraph' | 'quote' | 'listItem' | 'image' | 'footnote' | 'code' | 'table' | 'separator';

export interface Block {
  /** `c{chapter}-b{n}`, both 1-based, assigned once the chapters are final. */
  id: string;
  type: BlockType;
  /** Plain text: what is translated and what offsets count in. Ruby annotations are left out. */
  text: string;
  /**
   * Optional inline markup built from a whitelist (em, strong, sup, sub, ruby, rt, rp and `a` with an
   * internal `#blockId` href to a footnote). Text is escaped; present only when it adds something.
   */
  html?: string;
  /** Heading level 1-6 (type 'heading'). */
  level?: number;
  /** Image blocks: the id of an entry in `ParsedBook.images`. */
  imageId?: string;
  /** Footnote blocks: the label shown in the text ("1", "*", "[3]"). */
  noteLabel?: string;
  /** Blocks that reference footnotes: the ids of those footnote blocks. */
  noteRefs?: string[];
  /** Footnote blocks: the ids of the blocks that reference this note. */
  referencedBy?: string[];
  /** PDF only: the 1-based page the block starts on. */
  pdfPage?: number;
  /**
   * PDF only: where the block stands on the pages it covers, one rectangle per page and column piece
   * (see pdf/pdf-regions.ts). Left out when the parse knows no place (text read by OCR).
   */
  pdfRegions?: PdfRegion[];
}

/**
 * A rectangle of a PDF page: `page` 1-based; x, y, w, h fractions (0..1) of the page's width and
 * height as displayed (rotation and crop box applied), origin at the top left.
 */
export interface PdfRegion {
  page: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * A run of blocks read together: a reader page never holds two chapters, and the translation's
 * context is the chapter so far. Chapters are the coarse cuts of the contents (a book's parts or
 * chapters); the contents themselves are `ParsedBook.contents`.
 */
export interface Chapter {
  /** Empty when `generated` says it. */
  title: string;
  /** A title Yidu made ("Part 3"), said in the reader's language. */
  generated?: GeneratedTitle;
  /** Depth of the chapter's entry in the contents, 1 = top level. */
  level?: number;
  blocks: Block[];
}

/**
 * An entry of the contents at any depth, as the book declares them (EPUB nav/NCX, PDF outline, Word
 * headings) or as the text shows them (TXT/DOC headings). Entries are in the book's order, a child
 * one level below its parent; several may lead to the same block.
 */
export interface ContentsEntry {
  /** Empty when `generated` says it. */
  title: string;
  generated?: GeneratedTitle;
  /** 1 = top level; never more than one below the entry before. */
  level: number;
  /** The block it leads to. */
  blockId: string;
}

export interface BookImage {
  id: string;
  data: Buffer;
  mediaType: string;
  width?: number;
  height?: number;
}

/**
 * PDF: a figure whose picture is made after the book is stored (pdf/pdf-crop.ts crops the first
 * ones during the parse; a queue job the rest). Its block already has `imageId`.
 */
export interface PendingCrop {
  imageId: string;
  /** The region to render, its margin included. */
  region: PdfRegion;
  /** A photograph of this many pixels per point (0: unknown): encoded lossy, rendered no finer. */
  photo?: number;
}

export interface BookMetadata {
  title?: string;
  author?: string;
  /** The language the file declares (raw, e.g. "en-US"); often wrong, see language/detect.ts. */
  language?: string;
  description?: string;
  publisher?: string;
}

export interface ParseStats {
  format: BookFormat;
  chapters: number;
  blocks: number;
  characters: number;
  images: number;
  footnotes: number;
  /** PDF: page count; other formats leave it out. */
  pages?: number;
  /** PDF: how many pages went through OCR. */
  ocrPages?: number;
  /** TXT: the encoding the bytes were decoded with. */
  encoding?: string;
  durationMs: number;
}

export interface ParsedBook {
  format: BookFormat;
  metadata: BookMetadata;
  cover?: { data: Buffer; mediaType: string };
  chapters: Chapter[];
  /** The contents tree in order (never empty for a book with text: chapters stand in for it). */
  contents: ContentsEntry[];
  images: BookImage[];
  /** PDF: pictures of image blocks still to be rendered, in page order (see PendingCrop). */
  pendingCrops?: PendingCrop[];
  /** Things a maintainer may want to know; never shown as errors (a warning never fails a parse). */
  warnings: string[];
  stats: ParseStats;
}

export interface ParseOptions {
  /** PDF: OCR every page even if it has a text layer. */
  forceOCR?: boolean;
  /** Link footnotes to the blocks that reference them (PDF: detect them by position and font). */
  autoSplitFootnote?: boolean;
  /** OCR languages as reading-language codes ('en', 'zh'...); defaults to ['en']. */
  ocrLanguages?: string[];
  /** Called with 0..1 as the parse advances (PDF: per page). */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** Engine used for OCR; defaults to the shared tesseract engine. */
  ocrEngine?: OcrEngine;
  /** PDF: threads helping to read the text layer besides the parsing one, at most (see pdfHelpers). */
  pdfHelperThreads?: number;
  /**
   * The caller will not use the input again, so a parser may hand the bytes to its engine instead of
   * copying them (PDF: pdf.js takes them over and the caller's buffer is left empty). 30 MB less at
   * the peak of a 30 MB file.
   */
  handOverInput?: boolean;
  /** PDF: pages read between two emptyings of pdf.js's caches (see STRETCH_PAGES); for tests. */
  pdfStretchPages?: number;
  /**
   * PDF: figures, tables and displayed formulas cropped from the pages as pictures (their text left
   * out of the paragraphs). On unless false; off for measuring what cropping costs (bench/).
   */
  pdfFigures?: boolean;
  /**
   * PDF: how many figures are cropped during the parse, in page order; the others are left in
   * `pendingCrops` for after the book is stored. All of them when left out.
   */
  pdfCropsInParse?: number;
}

export interface BookParser {
  readonly format: BookFormat;
  parse(input: Buffer, options?: ParseOptions): Promise<ParsedBook>;
}
