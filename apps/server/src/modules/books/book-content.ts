/**
 * A parsed book made into stored content: its images and cover to storage under server-made keys,
 * its blocks given reader pages, and its chapters and blocks written to the database. This runs in
 * the worker, which in `--role=all` shares its event loop with the API: the block rows are made one
 * batch at a time, between the inserts, so that a 30 MB book never holds the loop for long.
 */
import { createHash } from 'node:crypto';
import type { Insertable } from 'kysely';
import type {
  BookBlocksTable,
  BookChaptersTable,
  BookContentsTable,
  BookImagesTable,
  BookRow,
} from '../../db/schema.ts';
import type { BookImage } from '../../engines/parsers/types.ts';
import type { ParsedStream } from '../../engines/parsers/isolated/parse-host.ts';
import { isStorageFull } from '../../engines/storage/disk.ts';
import type { FileStorage } from '../../engines/storage/storage.ts';
import type { Logger } from '../../lib/logger.ts';
import type { BooksRepo } from './books.repo.ts';
import { PageCounter } from './paginate.ts';

/** Block rows per insert: small enough that making and sending one batch takes a few milliseconds. */
export const BLOCK_ROWS_PER_BATCH = 500;

export interface ContentDeps {
  repo: BooksRepo;
  storage: FileStorage;
  logger: Logger;
  /** Stores a cover image with its thumbnail and returns its key. */
  storeCover: (data: Buffer) => Promise<string>;
  /** The book has figures whose pictures are still to be made (queues book.crops). */
  onCropsPending?: (bookId: number) => Promise<void>;
}

export interface StoredContent {
  chapters: number;
  blocks: number;
  characters: number;
  pages: number;
  images: number;
  /** PDF figures whose pictures are made after (book-crops.ts). */
  pendingCrops: number;
}

export async function storeBookContent(
  deps: ContentDeps,
  book: BookRow,
  parsed: ParsedStream,
  requestId: string,
): Promise<StoredContent> {
  // Images come first, then chapters (protocol.ts): the images are stored before any row is written.
  const pieces = parsed.pieces();
  let piece = await pieces.next();
  const images = [];
  for (; !piece.done && piece.value.type === 'images'; piece = await pieces.next()) {
    for (const image of piece.value.images) images.push(await storeBookImage(deps.storage, book.id, image));
  }
  if (parsed.head.cover && !book.cover_key) {
    try {
      await deps.repo.updateBook(book.id, { cover_key: await deps.storeCover(parsed.head.cover.data) });
    } catch (error) {
      // A cover we cannot decode (SVG, broken JPEG) is not worth failing the book for; a full disk is.
      if (isStorageFull(error)) throw error;
      deps.logger.info({ requestId, err: error }, 'cover skipped');
    }
  }

  // Pages, chapter rows and figures are made as the block batches are: nothing walks the whole book
  // in one go on this event loop.
  const counter = new PageCounter();
  const chapters: (Insertable<BookChaptersTable> & { block_count: number })[] = [];
  // The contents lead to blocks by id; each block's seq is known once it is placed.
  const entriesByBlock = new Map<string, number[]>();
  parsed.head.contents.forEach((entry, i) => {
    const list = entriesByBlock.get(entry.blockId);
    if (list) list.push(i);
    else entriesByBlock.set(entry.blockId, [i]);
  });
  const entrySeqs = new Array<number | undefined>(parsed.head.contents.length);
  let seq = 0;
  let characters = 0;
  async function* blockBatches(): AsyncGenerator<Insertable<BookBlocksTable>[]> {
    let batch: Insertable<BookBlocksTable>[] = [];
    let continuing = false;
    for (; !piece.done; piece = await pieces.next()) {
      if (piece.value.type !== 'chapters') throw new Error('the parse process sent images after chapters');
      for (const [n, chapter] of piece.value.chapters.entries()) {
        // The first chapter of a piece may go on from the last of the one before.
        if (n === 0 && continuing) chapters.at(-1)!.block_count += chapter.blocks.length;
        else {
          chapters.push({
            book_id: book.id,
            idx: chapters.length + 1,
            title: chapter.title.slice(0, 500),
            generated: chapter.generated ? JSON.stringify(chapter.generated) : null,
            level: chapter.level ?? 1,
            first_page: counter.startChapter(),
            first_seq: seq + 1,
            block_count: chapter.blocks.length,
          });
        }
        const chapterIdx = chapters.length;
        for (const block of chapter.blocks) {
          seq += 1;
          characters += block.text.length;
          for (const i of entriesByBlock.get(block.id) ?? []) entrySeqs[i] = seq;
          batch.push({
            book_id: book.id,
            seq,
            block_id: block.id,
            chapter_idx: chapterIdx,
            page: counter.place(block),
            type: block.type,
            text: block.text,
            html: block.html ?? null,
            level: block.level ?? null,
            image_id: block.imageId ?? null,
            note_label: block.noteLabel ?? null,
            note_refs: block.noteRefs ?? null,
            referenced_by: block.referencedBy ?? null,
            pdf_page: block.pdfPage ?? null,
            pdf_regions: block.pdfRegions ? JSON.stringify(block.pdfRegions) : null,
          });
          if (batch.length === BLOCK_ROWS_PER_BATCH) {
            yield batch;
            batch = [];
          }
        }
      }
      continuing = piece.value.continues;
    }
    if (batch.length) yield batch;
  }

  const pendingCrops = (parsed.head.pendingCrops ?? []).map((crop) => ({
    book_id: book.id,
    image_id: crop.imageId,
    page: crop.region.page,
    region: JSON.stringify(crop.region),
    photo: crop.photo ?? null,
  }));
  await deps.repo.replaceContent(book.id, {
    blockBatches: blockBatches(),
    images,
    pendingCrops,
    finish: () => ({
      chapters,
      contents: contentsRows(book.id, parsed.head.contents, entrySeqs),
      stats: {
        chapter_count: chapters.length,
        block_count: seq,
        char_count: characters,
        page_count: counter.page,
        source_pages: parsed.head.stats.pages ?? null,
      },
    }),
  });
  if (pendingCrops.length) await deps.onCropsPending?.(book.id);
  return {
    chapters: chapters.length,
    blocks: seq,
    characters,
    pages: counter.page,
    images: images.length,
    pendingCrops: pendingCrops.length,
  };
}

/** Stores one of a book's images under a key made from its id, and gives its book_images row. */
export async function storeBookImage(
  storage: FileStorage,
  bookId: number,
  image: BookImage,
): Promise<Insertable<BookImagesTable>> {
  const ext = extensionOf(image.mediaType);
  const key = `books/${bookId}/img-${createHash('sha256').update(image.id).digest('hex').slice(0, 20)}.${ext}`;
  await storage.put(key, image.data);
  return {
    book_id: bookId,
    image_id: image.id,
    storage_key: key,
    media_type: image.mediaType,
    width: image.width ?? null,
    height: image.height ?? null,
  };
}

/** The contents' rows: each entry with the seq of its block (an entry whose block is gone is left out). */
function contentsRows(
  bookId: number,
  contents: ParsedStream['head']['contents'],
  seqs: (number | undefined)[],
): Insertable<BookContentsTable>[] {
  const rows: Insertable<BookContentsTable>[] = [];
  contents.forEach((entry, i) => {
    const seq = seqs[i];
    if (seq === undefined) return;
    rows.push({
      book_id: bookId,
      idx: rows.length + 1,
      level: Math.max(1, Math.min(entry.level, (rows.at(-1)?.level ?? 0) + 1, 255)),
      title: entry.title.slice(0, 500),
      generated: entry.generated ? JSON.stringify(entry.generated) : null,
      seq,
    });
  });
  return rows;
}

function extensionOf(mediaType: string): string {
  const known: Record<string, string> = {
    'image/jpeg': 'jpg',
    'image/png': 'png',
    'image/gif': 'gif',
    'image/webp': 'webp',
    'image/svg+xml': 'svg',
    'image/bmp': 'bmp',
  };
  return known[mediaType.toLowerCase()] ?? 'bin';
}
