import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import type { BookRow } from '../../db/schema.ts';
import type { ParseHost } from '../../engines/parsers/isolated/parse-host.ts';
import { sniff } from '../../engines/parsers/sniff.ts';
import { partialMd5 } from '../../lib/partial-md5.ts';
import { newBookCode } from '../books/book-code.ts';
import { storeBookContent, type ContentDeps } from '../books/book-content.ts';
import { FileMetadataStore } from '../books/file-metadata.ts';
import { md5Hex } from '../devices/device-keys.ts';
import { FIRST_SHELF, type ShelfBook } from './first-shelf.ts';
import { FirstShelfRepo } from './first-shelf.repo.ts';

interface Deps extends ContentDeps {
  db: Db;
  config: Config;
  parseHost: ParseHost;
}

const BOOKS_DIR = path.join(import.meta.dirname, 'books');
/** One seeding at a time across every process of a deployment (pg_advisory_lock's key). */
const LOCK_KEY = 0x79_69_64_75_01; // "yidu", 1

/**
 * Seeds the first shelf into the public library at start-up (the worker's), each book once, ever:
 * a book an admin took away is not brought back, and FIRST_SHELF=false seeds nothing. Processes
 * starting at once take turns under an advisory lock; a start that died in the middle of a book
 * left its entry and a book still processing, which the next start parses again.
 */
export class FirstShelf {
  private readonly d: Deps;
  private readonly shelf: FirstShelfRepo;
  constructor(deps: Deps) {
    this.d = deps;
    this.shelf = new FirstShelfRepo(deps.db);
  }

  /** Seeds what is missing; returns the slugs seeded now. */
  async seed(books: readonly ShelfBook[] = FIRST_SHELF): Promise<string[]> {
    if (!this.d.config.firstShelf) return [];
    return this.d.db.connection().execute(async (connection) => {
      await sql`SELECT pg_advisory_lock(${LOCK_KEY})`.execute(connection);
      try {
        const seeded: string[] = [];
        for (const book of books) if (await this.seedOne(book)) seeded.push(book.slug);
        if (seeded.length) this.d.logger.info({ books: seeded }, 'first shelf seeded into the public library');
        return seeded;
      } finally {
        await sql`SELECT pg_advisory_unlock(${LOCK_KEY})`.execute(connection);
      }
    });
  }

  private async seedOne(shelfBook: ShelfBook): Promise<boolean> {
    const entry = await this.shelf.find(shelfBook.slug);
    // Seeded before: finished, or removed by an admin since.
    if (entry && (!entry.book || entry.book.status === 'ready')) return false;
    const data = await readFile(path.join(BOOKS_DIR, shelfBook.file));
    const book = entry?.book ?? (await this.claim(shelfBook, data));
    const parsed = await this.d.parseHost.parse(data, {
      ocrLanguages: ['en'],
      timeoutMs: this.d.config.books.parseTimeoutSeconds * 1000,
      pdfHelperThreads: this.d.config.books.pdfHelperThreads,
      pdfCropsInParse: this.d.config.books.pdfCropsInParse,
    });
    try {
      await storeBookContent(this.d, book, parsed, `first-shelf:${shelfBook.slug}`);
    } finally {
      parsed.close();
    }
    await this.d.repo.updateBook(book.id, { status: 'ready' });
    return true;
  }

  /** Stores the file (once per content, as uploads are) and writes the book with its slug's entry. */
  private async claim(shelfBook: ShelfBook, data: Buffer): Promise<BookRow> {
    const sniffed = sniff(data);
    if (!sniffed.ok) throw new Error(`first shelf: ${shelfBook.file} is not a book (${sniffed.error.message})`);
    const sha256 = createHash('sha256').update(data).digest('hex');
    let file = await this.d.repo.findFileBySha(sha256);
    if (!file) {
      const storageKey = `uploads/${sha256.slice(0, 2)}/${sha256}.${sniffed.format}`;
      await this.d.storage.put(storageKey, data);
      file = await this.d.repo.insertFile({
        id: `f${randomBytes(12).toString('hex')}`,
        sha256,
        size: String(data.length),
        format: sniffed.format,
        storage_key: storageKey,
        original_name: shelfBook.file,
        created_by: null,
        partial_md5: partialMd5(data),
        name_md5: md5Hex(shelfBook.file),
      });
    }
    // The cover the file holds (an EPUB's), read as an upload's is.
    const metadata = await new FileMetadataStore({ ...this.d, coverUrl: () => null }).of(file, data);
    return this.shelf.claim(shelfBook.slug, {
      code: await newBookCode(this.d.repo),
      file_id: file.id,
      owner_id: null,
      title: shelfBook.title,
      author: shelfBook.author,
      description: shelfBook.description,
      format: sniffed.format,
      visibility: 1,
      status: 'processing',
      original_language: shelfBook.language,
      declared_language: null,
      cover_key: metadata.coverKey ?? null,
      category: null,
      source_pages: null,
    });
  }
}
