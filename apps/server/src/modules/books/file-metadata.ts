import { titleFromFileName, type FileMetadata, type SaveBookBody } from '@yidu/shared';
import type { FileRow, StoredFileMetadata } from '../../db/schema.ts';
import { readFileMetadata } from '../../engines/parsers/metadata/metadata.ts';
import type { BookFormat } from '../../engines/parsers/types.ts';
import type { FileStorage } from '../../engines/storage/storage.ts';
import type { Logger } from '../../lib/logger.ts';
import type { BooksRepo } from './books.repo.ts';

interface Deps {
  repo: BooksRepo;
  storage: FileStorage;
  logger: Logger;
  storeCover: (data: Buffer) => Promise<string>;
  /** The signed URL of a stored cover's thumbnail. */
  coverUrl: (key: string) => string | null;
}

/**
 * What a stored file says about itself: read once per file (files are stored once per content), at
 * its first upload, and kept on its row with the key of the cover it holds.
 */
export class FileMetadataStore {
  private readonly d: Deps;
  constructor(deps: Deps) {
    this.d = deps;
  }

  /** The file's metadata, read now (from `data`, else from storage) when it was never read. */
  async of(file: FileRow, data?: Buffer): Promise<StoredFileMetadata> {
    if (file.metadata) return file.metadata;
    const found = await readFileMetadata(
      data ?? (await this.d.storage.get(file.storage_key)),
      file.format as BookFormat,
    );
    const stored: StoredFileMetadata = {};
    if (found.title) stored.title = found.title;
    if (found.author) stored.author = found.author;
    if (found.description) stored.description = found.description;
    if (found.cover) {
      try {
        stored.coverKey = await this.d.storeCover(found.cover.data);
      } catch (error) {
        // A cover we cannot decode (a broken JPEG) is not worth failing the upload for.
        this.d.logger.info({ fileId: file.id, err: error }, 'cover in the file skipped');
      }
    }
    await this.d.repo.setFileMetadata(file.id, stored);
    return stored;
  }

  /** As the upload answers it. */
  present(metadata: StoredFileMetadata): FileMetadata {
    return {
      title: metadata.title ?? null,
      author: metadata.author ?? null,
      description: metadata.description ?? null,
      coverUrl: metadata.coverKey ? this.d.coverUrl(metadata.coverKey) : null,
    };
  }
}

/**
 * The title, author and description a new book gets, the same for both upload paths: what the
 * uploader gave, except where they left the default — no title or the file-name title (SPEC §5.4), no
 * author, no description — which the file's own metadata fills, then the defaults.
 */
export function bookInfo(
  given: Pick<SaveBookBody, 'bookName' | 'bookAuthor' | 'bookDescribe'>,
  file: Pick<FileRow, 'original_name'>,
  metadata: StoredFileMetadata,
): { title: string; author: string; description: string } {
  const fileNameTitle = titleFromFileName(file.original_name);
  const name = given.bookName?.trim();
  const leftDefault = !name || name === fileNameTitle || name === file.original_name;
  return {
    title: ((leftDefault && metadata.title) || name || fileNameTitle).slice(0, 300),
    author: given.bookAuthor?.trim() || metadata.author || 'Anonymous',
    description: given.bookDescribe?.trim() || metadata.description || '',
  };
}
