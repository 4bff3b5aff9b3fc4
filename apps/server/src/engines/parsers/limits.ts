/**
 * The caps every parser holds to, named in one place. Each is far above what real books need (the
 * figures say what real books reach) and low enough that a hostile file meets one before it meets
 * the parse process's memory or time limit (isolated/parse-host.ts), so it is refused with
 * `fileTooComplex` and a message naming the cap. Each has a test at its boundary (limits.test.ts).
 */
export const PARSE_LIMITS = {
  /** Decompressed bytes of one ZIP entry (an EPUB chapter, DOCX's document.xml: real ones < 100 MB). */
  zipEntryBytes: 200 * 1024 * 1024,
  /** Decompressed bytes of a whole ZIP (EPUB, DOCX). */
  zipTotalBytes: 500 * 1024 * 1024,
  /** Decompressed bytes of one PDF stream (a page's content, an image, a font). */
  pdfStreamBytes: 128 * 1024 * 1024,
  /**
   * Decompressed bytes of one XHTML document read into a tree (an EPUB chapter; whole novels in one
   * file reach 10 MB). Larger ones would cost several times their size in memory.
   */
  markupDocumentBytes: 64 * 1024 * 1024,
  /** Elements of one XML/XHTML document read into a tree (EPUB chapters: real ones < 100,000). */
  elementsPerDocument: 1_000_000,
  /** How deep elements nest in any XML/XHTML (real books < 40). */
  nestingDepth: 256,
  /** Blocks (paragraphs, headings…) of one book: a 30 MB novel of short dialogue lines has < 300,000. */
  blocksPerBook: 500_000,
  /**
   * Lines of a plain text (TXT): a 30 MB novel wrapped at 70 columns has 450,000; 29 MB of one-word
   * lines has 8 million, each a paragraph to hold.
   */
  linesPerText: 2_000_000,
  /**
   * Entries of a book's contents (Pepys's diary has 126, a dictionary may list every word); those
   * past it are left out with a warning rather than the book refused: the text is all there.
   */
  contentsEntries: 10_000,
  /** Characters of one block; a longer one is cut into several at sentence, then word, ends. */
  blockChars: 20_000,
  /** Pages of one PDF. */
  pdfPages: 10_000,
  /** Pixels of a page rendered for OCR (an A4 page at OCR scale has 2 million); larger pages are rendered smaller. */
  ocrCanvasPixels: 16_000_000,
  /**
   * Pixels of a figure, table or formula cropped from a PDF page (pdf/pdf-crop.ts; a figure the size
   * of an A4 page's text has 3.4 million at the crop scale); larger regions are rendered smaller.
   */
  cropPixels: 4_000_000,
  /**
   * Pixels of the pictures a crop must decode: pdf.js decodes a picture whole, at 7 bytes a pixel at
   * the peak (its colour components, then RGBA), whatever the crop's size. A scanned photograph of
   * 14,000 × 14,000 pixels (Free Culture, page 171) took a parse past 1.3 GB. Larger figures are left
   * out (their caption stays) rather than failing the book.
   */
  cropSourcePixels: 24_000_000,
} as const;
