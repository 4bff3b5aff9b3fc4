/**
 * What the API process and a parse process say to each other over Node's IPC channel (advanced
 * serialization: structured clone, so Buffers arrive as Uint8Arrays). A parsed book is sent in
 * pieces — images and chapters in bounded batches — so that no single message makes the receiving
 * event loop deserialize a whole 30 MB book at once.
 */
import type { LanguageDetection } from '../../language/detect.ts';
import type { BookImage, Chapter, ParsedBook, PendingCrop } from '../types.ts';

/** The parse options that cross the process boundary (no callbacks, no signals, no engines). */
export interface IsolatedParseOptions {
  forceOCR?: boolean;
  autoSplitFootnote?: boolean;
  ocrLanguages?: string[];
  pdfHelperThreads?: number;
  /** PDF: figures cropped during the parse; the rest are left for later (ParsedBook.pendingCrops). */
  pdfCropsInParse?: number;
  /** The parse aborts itself after this long (fileTooComplex); the host kills it a little later. */
  timeoutMs: number;
}

/**
 * The file goes over in 'input' pieces (no 30 MB message to copy in one go), then 'parse' (or 'crop':
 * render figures a parse of the same PDF left for later). Once the book's head (or 'cropped') has
 * come back, each 'next' asks for its next piece; 'drop' lets the rest go.
 */
export type HostMessage =
  | { type: 'input'; piece: Uint8Array }
  | { type: 'parse'; options: IsolatedParseOptions }
  | { type: 'crop'; crops: PendingCrop[]; timeoutMs: number }
  | { type: 'next' }
  | { type: 'drop' };

export const INPUT_BYTES_PER_MESSAGE = 1024 * 1024;

/** A bounded part of a parsed book after its head: images, or chapters (whole or cut). */
export type BookPiece =
  | { type: 'images'; images: BookImage[] }
  /** `continues`: the last chapter goes on in the next piece (a chapter larger than a batch). */
  | { type: 'chapters'; chapters: Chapter[]; continues: boolean };

export type ChildMessage =
  | { type: 'progress'; fraction: number }
  /** `detection`: the book's language, told where the whole text is at hand (not in the API's process). */
  | { type: 'head'; head: BookHead; detection: LanguageDetection }
  /** The crops are rendered: their images follow, piece by piece ('images'). */
  | { type: 'cropped' }
  | BookPiece
  | { type: 'done' }
  | { type: 'failed'; key: string; message: string };

export type BookHead = Omit<ParsedBook, 'chapters' | 'images'>;

/** Blocks per message, and image bytes per message. */
export const BLOCKS_PER_MESSAGE = 2000;
export const IMAGE_BYTES_PER_MESSAGE = 4 * 1024 * 1024;

/** The messages a parsed book is sent as, in order (without the final 'done'). */
export function* bookMessages(book: ParsedBook, detection: LanguageDetection): Generator<ChildMessage> {
  const { chapters, images, ...head } = book;
  yield { type: 'head', head, detection };
  yield* imageMessages(images);

  // Chapters go in batches of about BLOCKS_PER_MESSAGE blocks; a larger chapter is cut, each part
  // but the last saying that it continues.
  let pending: Chapter[] = [];
  let blocks = 0;
  for (const chapter of chapters) {
    let start = 0;
    do {
      const part: Chapter = { ...chapter, blocks: chapter.blocks.slice(start, start + BLOCKS_PER_MESSAGE) };
      start += BLOCKS_PER_MESSAGE;
      if (pending.length && blocks + part.blocks.length > BLOCKS_PER_MESSAGE) {
        yield { type: 'chapters', chapters: pending, continues: false };
        pending = [];
        blocks = 0;
      }
      pending.push(part);
      blocks += part.blocks.length;
      if (start < chapter.blocks.length) {
        yield { type: 'chapters', chapters: pending, continues: true };
        pending = [];
        blocks = 0;
      }
    } while (start < chapter.blocks.length);
  }
  if (pending.length) yield { type: 'chapters', chapters: pending, continues: false };
}

/** Images in messages of about IMAGE_BYTES_PER_MESSAGE. */
export function* imageMessages(images: BookImage[]): Generator<BookPiece> {
  let batch: BookImage[] = [];
  let bytes = 0;
  for (const image of images) {
    if (batch.length && bytes + image.data.length > IMAGE_BYTES_PER_MESSAGE) {
      yield { type: 'images', images: batch };
      batch = [];
      bytes = 0;
    }
    batch.push(image);
    bytes += image.data.length;
  }
  if (batch.length) yield { type: 'images', images: batch };
}

/** Puts a book together again from its messages, as they arrive. */
export class BookAssembler {
  private head?: BookHead;
  detection?: LanguageDetection;
  private readonly images: BookImage[] = [];
  private readonly chapters: Chapter[] = [];
  private continuing = false;

  accept(message: ChildMessage): void {
    switch (message.type) {
      case 'head':
        this.head = message.head;
        this.detection = message.detection;
        if (message.head.cover) message.head.cover.data = asBuffer(message.head.cover.data);
        break;
      case 'images':
        for (const image of message.images) this.images.push({ ...image, data: asBuffer(image.data) });
        break;
      case 'chapters': {
        const [first, ...rest] = message.chapters;
        if (first && this.continuing) this.chapters.at(-1)!.blocks.push(...first.blocks);
        else if (first) this.chapters.push(first);
        this.chapters.push(...rest);
        this.continuing = message.continues;
        break;
      }
      default:
        break;
    }
  }

  book(): ParsedBook {
    if (!this.head) throw new Error('the parse process sent no book');
    return { ...this.head, chapters: this.chapters, images: this.images };
  }
}

/** Structured clone turns a Buffer into a plain Uint8Array; make it a Buffer again, without a copy. */
function asBuffer(data: Uint8Array): Buffer {
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}
