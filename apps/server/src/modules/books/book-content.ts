/**
 * A parsed book made into stored content: its images and cover to storage under server-made keys,
 * its blocks given reader pages, and its chapters and blocks written to the database. This runs in
 * the worker, which in `--role=all` shares its event loop with the API: the block rows are made one
 * batch at a time, between the inserts, so that a 30 MB book never holds the loop for long.
 */
import { createHash } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { BookBlocksTable, BookChaptersTable, BookRow } from '../../db/schema.ts';
import type { ParsedBook } from '../../engines/parsers/types.ts';
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
}

export interface StoredContent {
  chapters: number;
  blocks: number;
  characters: number;
  pages: number;
  images: number;
}

export async function storeBookContent(
  deps: ContentDeps,
  book: BookRow,
  parsed: ParsedBook,
  requestId: string,
): Promise<StoredContent> {
  const images = [];
  for (const image of parsed.images) {
    const ext = extensionOf(image.mediaType);
    const key = `books/${book.id}/img-${createHash('sha256').update(image.id).digest('hex').slice(0, 20)}.${ext}`;
    await deps.storage.put(key, image.data);
    images.push({
      book_id: book.id,
      image_id: image.id,
      storage_key: key,
      media_type: image.mediaType,
      width: image.width ?? null,
      height: image.height ?? null,
    });
  }
  if (parsed.cover && !book.cover_key) {
    try {
      await deps.repo.updateBook(book.id, { cover_key: await deps.storeCover(parsed.cover.data) });
    } catch (error) {
      // A cover we cannot decode (SVG, broken JPEG) is not worth failing the book for.
      deps.logger.info({ requestId, err: error }, 'cover skipped');
    }
  }

  // Pages, chapter rows and figures are made as the block batches are: nothing walks the whole book
  // in one go on this event loop.
  const counter = new PageCounter();
  const chapters: Insertable<BookChaptersTable>[] = [];
  let seq = 0;
  let characters = 0;
  function* blockBatches(): Generator<Insertable<BookBlocksTable>[]> {
    let batch: Insertable<BookBlocksTable>[] = [];
    for (const [ci, chapter] of parsed.chapters.entries()) {
      chapters.push({
        book_id: book.id,
        idx: ci + 1,
        title: chapter.title.slice(0, 500),
        level: chapter.level ?? 1,
        first_page: counter.startChapter(),
        first_seq: seq + 1,
        block_count: chapter.blocks.length,
      });
      for (const block of chapter.blocks) {
        seq += 1;
        characters += block.text.length;
        batch.push({
          book_id: book.id,
          seq,
          block_id: block.id,
          chapter_idx: ci + 1,
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
        });
        if (batch.length === BLOCK_ROWS_PER_BATCH) {
          yield batch;
          batch = [];
        }
      }
    }
    if (batch.length) yield batch;
  }

  await deps.repo.replaceContent(book.id, {
    blockBatches: blockBatches(),
    images,
    finish: () => ({
      chapters,
      stats: {
        chapter_count: chapters.length,
        block_count: seq,
        char_count: characters,
        page_count: counter.page,
        source_pages: parsed.stats.pages ?? null,
      },
    }),
  });
  return { chapters: chapters.length, blocks: seq, characters, pages: counter.page, images: images.length };
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
