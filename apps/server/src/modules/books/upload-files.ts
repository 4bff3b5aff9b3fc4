import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { UploadCount, UploadedFile } from '@yidu/shared';
import type { Config } from '../../config/env.ts';
import { sniff } from '../../engines/parsers/sniff.ts';
import type { FileStorage } from '../../engines/storage/storage.ts';
import { fail } from '../../http/errors.ts';
import { sha256InSlices } from '../../lib/hash.ts';
import { partialMd5 } from '../../lib/partial-md5.ts';
import { md5Hex } from '../devices/device-keys.ts';
import type { Logger } from '../../lib/logger.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { BooksRepo } from './books.repo.ts';
import type { FileMetadataStore } from './file-metadata.ts';

/** The counters of the per-IP upload limits (SPEC §9: per day and per month). */
const uploadKeys = (ip: string) => ({ day: `uploads:day:${ip}`, month: `uploads:month:${ip}` });

interface Deps {
  config: Config;
  repo: BooksRepo;
  storage: FileStorage;
  logger: Logger;
  /** Keeps the per-IP upload counters (see upload()). */
  limiter: RateLimiter;
}

/** Uploaded book files: checked, counted against the per-IP limits, stored once per content. */
export class UploadFiles {
  private readonly d: Deps;
  private readonly metadata: FileMetadataStore;
  constructor(deps: Deps, metadata: FileMetadataStore) {
    this.d = deps;
    this.metadata = metadata;
  }

  async counts(ip: string): Promise<UploadCount> {
    const { books, accounts } = this.d.config;
    const [today, thisMonth] = await Promise.all([
      this.d.limiter.peek(uploadKeys(ip).day),
      this.d.limiter.peek(uploadKeys(ip).month),
    ]);
    return {
      today: today.count,
      thisMonth: thisMonth.count,
      dailyLimit: books.uploadsPerDay,
      monthlyLimit: books.uploadsPerMonth,
      maxFileMb: Math.round(books.maxFileBytes / 1024 / 1024),
      contactEmail: accounts.contactEmail,
    };
  }

  /**
   * Stores an uploaded book file once per content hash and counts the upload against the IP limits.
   * The file is checked first (size, type: nothing is stored or counted for a file that is refused);
   * then the upload takes a slot of the day's and the month's limit, each in one statement, before
   * anything is stored: uploads racing each other never pass the limits.
   */
  async upload(userId: number, ip: string, file: { filename: string; data: Buffer }): Promise<UploadedFile> {
    const { maxFileBytes } = this.d.config.books;
    if (file.data.length > maxFileBytes)
      throw fail('fileTooLarge', { maxFileMb: Math.round(maxFileBytes / 1024 / 1024) });
    const extension = path.extname(file.filename).slice(1).toLowerCase();
    if (!['pdf', 'txt', 'docx', 'doc', 'epub'].includes(extension)) throw fail('unsupportedFileType');
    const sniffed = sniff(file.data);
    if (!sniffed.ok) {
      // An empty file and a Word older than Word 6 deserve their own message; anything else is a type we do not read.
      const key = sniffed.error.key;
      throw fail(key === 'emptyFile' || key === 'formatTooOld' ? key : 'unsupportedFileType', {
        detail: sniffed.error.message,
      });
    }
    // The content decides; a .txt that is really an EPUB is read as an EPUB. A binary named .txt is not a text.
    if (extension !== sniffed.format && !(extension === 'doc' && sniffed.format === 'docx')) {
      this.d.logger.info({ extension, sniffed: sniffed.format }, 'file extension does not match its content');
    }

    const release = await this.takeUploadSlots(ip);
    try {
      const sha256 = await sha256InSlices(file.data);
      let stored = await this.d.repo.findFileBySha(sha256);
      if (!stored) {
        const id = `f${randomBytes(12).toString('hex')}`;
        const storageKey = `uploads/${sha256.slice(0, 2)}/${sha256}.${sniffed.format}`;
        await this.d.storage.put(storageKey, file.data);
        stored = await this.d.repo.insertFile({
          id,
          sha256,
          size: String(file.data.length),
          format: sniffed.format,
          storage_key: storageKey,
          original_name: file.filename.slice(0, 255),
          created_by: userId,
          // How KOReader names the file on a device, for its progress sync (modules/kosync).
          partial_md5: partialMd5(file.data),
          name_md5: md5Hex(file.filename.slice(0, 255)),
        });
      }
      await this.d.repo.recordUpload(ip, userId, stored.id);
      // Never throws: a file whose metadata cannot be read is simply named after itself.
      const metadata = await this.metadata.of(stored, file.data);
      return { fileId: stored.id, format: stored.format, metadata: this.metadata.present(metadata) };
    } catch (error) {
      await release();
      throw error;
    }
  }

  /** Takes a slot of today's and of this month's upload limit; uploadLimitReached when one is full. */
  private async takeUploadSlots(ip: string): Promise<() => Promise<void>> {
    const { uploadsPerDay, uploadsPerMonth } = this.d.config.books;
    const keys = uploadKeys(ip);
    const day = await this.d.limiter.take(keys.day, uploadsPerDay, 'day');
    const month = day.allowed ? await this.d.limiter.take(keys.month, uploadsPerMonth, 'month') : undefined;
    if (!day.allowed || !month?.allowed) {
      if (day.allowed) await this.d.limiter.giveBack(keys.day);
      throw fail('uploadLimitReached', { ...(await this.counts(ip)) });
    }
    return async () => {
      await Promise.all([this.d.limiter.giveBack(keys.day), this.d.limiter.giveBack(keys.month)]);
    };
  }
}
