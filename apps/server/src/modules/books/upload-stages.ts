/**
 * The work of each upload stage, run by the worker (UploadService.runStage records its outcome):
 * parse the file in a parse process and store the book, tell its language, translate its title, save
 * it to the uploader's library. A StageFailure fails the request for good (the file is the problem);
 * any other error is retried by the queue.
 */
import type { Config } from '../../config/env.ts';
import type { FileRow, UploadRequestRow } from '../../db/schema.ts';
import { detectBookLanguage } from '../../engines/language/detect.ts';
import { hasOcrLanguage } from '../../engines/ocr/languages.ts';
import { isParseError } from '../../engines/parsers/errors.ts';
import { ParserFailure, type ParseHost, type ParsedStream } from '../../engines/parsers/isolated/parse-host.ts';
import type { ParseStats } from '../../engines/parsers/types.ts';
import { isStorageFull } from '../../engines/storage/disk.ts';
import { AppError } from '../../http/errors.ts';
import type { PointsService } from '../points/points.service.ts';
import { newBookCode } from './book-code.ts';
import { storeBookContent, type ContentDeps } from './book-content.ts';
import type { UploadRequestsRepo } from './upload-requests.repo.ts';

/** Translates a book title; provided by the translation engine layer once it is configured. */
export type TitleTranslator = (text: string, from: string, to: string, userId: number) => Promise<string>;

export type WorkStage = 'parsingFile' | 'detectingLanguage' | 'translatingTitle' | 'saving';

/** Thrown inside a stage to fail it for good (no retry): the file itself is the problem. */
export class StageFailure extends Error {
  readonly key: string;
  constructor(key: string, message: string) {
    super(message);
    this.key = key;
  }
}

export interface StageDeps extends ContentDeps {
  config: Config;
  /** Parses files in separate processes, with memory and time limits. */
  parseHost: ParseHost;
  /** The request's book in the library, and the title chosen after. */
  requests: UploadRequestsRepo;
  translateTitle?: TitleTranslator | undefined;
  /** Pays for the optional processing the uploader asked for (footnote splitting, OCR). */
  points: PointsService;
  /** A book was stored for a reader of this language (its glossary is extracted then). */
  onBookReady?: (bookId: number, lang: string) => Promise<void>;
}

export class UploadStages {
  private readonly d: StageDeps;
  constructor(deps: StageDeps) {
    this.d = deps;
  }

  async run(stage: WorkStage, request: UploadRequestRow): Promise<Record<string, unknown>> {
    try {
      return await this.work(stage, request);
    } catch (error) {
      // A full disk is no fault of the file: it fails with its own key, without the queue's retries
      // (they would meet the same disk), and Retry works once there is room again.
      if (!(error instanceof StageFailure) && isStorageFull(error))
        throw new StageFailure('storageFull', String((error as Error).message));
      throw error;
    }
  }

  private work(stage: WorkStage, request: UploadRequestRow): Promise<Record<string, unknown>> {
    switch (stage) {
      case 'parsingFile':
        return this.parse(request);
      case 'detectingLanguage':
        return this.detect(request);
      case 'translatingTitle':
        return this.translate(request);
      case 'saving':
        return this.save(request);
    }
  }

  private async parse(request: UploadRequestRow): Promise<Record<string, unknown>> {
    const file = (await this.d.repo.findFile(request.file_id))!;
    const data = await this.d.storage.get(file.storage_key);
    let lastWrite = 0;
    let parsed: ParsedStream;
    try {
      parsed = await this.d.parseHost.parse(data, {
        forceOCR: request.force_ocr,
        autoSplitFootnote: request.auto_split_footnote,
        ocrLanguages: ocrLanguagesFor(request.original_language),
        timeoutMs: this.d.config.books.parseTimeoutSeconds * 1000,
        pdfHelperThreads: this.d.config.books.pdfHelperThreads,
        pdfCropsInParse: this.d.config.books.pdfCropsInParse,
        onProgress: (fraction) => {
          const now = Date.now();
          if (now - lastWrite < 1000) return;
          lastWrite = now;
          void this.d.repo.updateRequest(request.id, { progress: Math.min(0.95, fraction * 0.9) }).catch(() => {});
        },
      });
    } catch (error) {
      // The file is the problem, and it will be again: no retry. A parse process that died or passed
      // its limits comes back as fileTooComplex; a parser's own bug as ParserFailure.
      if (isParseError(error)) {
        throw new StageFailure(error.key === 'aborted' ? 'fileTooComplex' : error.key, error.message);
      }
      if (error instanceof ParserFailure) throw new StageFailure('internalError', error.message);
      throw error;
    }
    // The book stays in the parse process until it is stored, piece by piece: let it go however this ends.
    try {
      return await this.keep(request, file, parsed);
    } finally {
      parsed.close();
    }
  }

  /** Charges the processing asked for and stores the parsed book (its pieces taken as it goes). */
  private async keep(request: UploadRequestRow, file: FileRow, parsed: ParsedStream): Promise<Record<string, unknown>> {
    const { head, detection } = parsed;
    if (head.warnings.length) {
      this.d.logger.info({ requestId: request.id, warnings: head.warnings.slice(0, 20) }, 'parsed with warnings');
    }
    if (head.stats.blocks === 0) throw new StageFailure('noTextFound', 'no text blocks');
    const processing = await this.chargeProcessing(request, head.stats);

    let book = request.book_id ? await this.d.repo.findBookById(request.book_id) : undefined;
    if (!book) {
      book = await this.d.repo.insertBook({
        code: await newBookCode(this.d.repo),
        file_id: file.id,
        owner_id: request.user_id,
        title: request.book_name,
        author: request.book_author,
        description: request.book_describe,
        format: head.format,
        visibility: request.book_status,
        declared_language: head.metadata.language?.slice(0, 20) ?? null,
        // The cover read at upload time; the parser's own is stored below only when there was none.
        cover_key: file.metadata?.coverKey ?? null,
        category: null,
        original_language: null,
        source_pages: null,
      });
      await this.d.repo.updateRequest(request.id, { book_id: book.id });
    }

    const stored = await storeBookContent(this.d, book, parsed, request.id);
    return {
      bookCode: book.code,
      ...stored,
      metadataTitle: head.metadata.title ?? null,
      metadataAuthor: head.metadata.author ?? null,
      ocrPages: head.stats.ocrPages ?? 0,
      pointsCharged: processing,
      // For the next stage: the language was told in the parse process, where the whole text was.
      detectedLanguage: detection.detected,
      detectedConfidence: detection.confidence,
    };
  }

  /**
   * Charges, only once the parse has succeeded and before its result is kept, the optional work it
   * did: footnotes turned into notes (when asked for and some were found) and pages read by forced OCR. The
   * idempotency key makes a redelivered or retried parse pay once. Without enough points the stage
   * fails with insufficientPoints and nothing is kept; Retry after topping up parses again.
   */
  private async chargeProcessing(request: UploadRequestRow, stats: ParseStats): Promise<number> {
    const prices = await this.d.points.prices();
    // OCR the parser chose by itself (a scanned PDF) is not charged: only what the uploader asked for.
    const ocrPages = request.force_ocr ? (stats.ocrPages ?? 0) : 0;
    const footnotes = request.auto_split_footnote && stats.footnotes > 0;
    const points = (footnotes ? prices.footnoteSplit : 0) + ocrPages * prices.ocrPage;
    if (points <= 0) return 0;
    try {
      await this.d.points.spend(request.user_id, {
        points,
        reason: 'bookProcessing',
        detail: { requestId: request.id, bookTitle: request.book_name, footnoteSplit: footnotes, ocrPages },
        idempotencyKey: `upload:${request.id}:processing`,
      });
    } catch (error) {
      if (error instanceof AppError && error.key === 'insufficientPoints')
        throw new StageFailure('insufficientPoints', `processing costs ${points} points`);
      throw error;
    }
    return points;
  }

  private async detect(request: UploadRequestRow): Promise<Record<string, unknown>> {
    const book = (await this.d.repo.findBookById(request.book_id!))!;
    let language = request.original_language;
    let source = 'user';
    let confidence = 1;
    if (!language) {
      // The very detection the parsers' tests hold to, made by the parse process on the whole book;
      // requests parsed before it did that read the stored body instead.
      const parse = (request.results as { parsingFile?: { detectedLanguage?: string; detectedConfidence?: number } })
        .parsingFile;
      const detected =
        parse?.detectedLanguage !== undefined
          ? { detected: parse.detectedLanguage, confidence: parse.detectedConfidence ?? 0 }
          : detectBookLanguage({ chapters: [{ blocks: await this.d.repo.bodyText(book.id) }] });
      // A language outside the 26 is kept as its ISO code ('he'): the reader sends it as the source,
      // and an engine that does not know it lets its service detect the source. Nothing to tell
      // ('und') stays null: automatic.
      language = detected.detected === 'und' ? null : detected.detected;
      confidence = detected.confidence;
      source = 'detected';
    }
    await this.d.repo.updateBook(book.id, { original_language: language });
    await this.d.repo.updateRequest(request.id, { original_language: language });
    return { language, confidence, source };
  }

  private async translate(request: UploadRequestRow): Promise<Record<string, unknown>> {
    const from = request.original_language ?? 'auto';
    const to = request.target_language ?? 'zh';
    if (from === to) return { translatedName: request.book_name, from, to };
    if (!this.d.translateTitle) throw new StageFailure('translationUnavailable', 'no translation engine is configured');
    try {
      return { translatedName: await this.d.translateTitle(request.book_name, from, to, request.user_id), from, to };
    } catch (error) {
      if (error instanceof AppError) throw new StageFailure(error.key, error.message);
      throw error;
    }
  }

  private async save(request: UploadRequestRow): Promise<Record<string, unknown>> {
    // Title, author and description were settled when the request was made (bookInfo, both paths); a
    // title chosen since is in the request.
    const saved = await this.d.requests.saveBook(request.id);
    await this.d
      .onBookReady?.(saved.id, request.target_language ?? 'zh')
      .catch((error: unknown) => this.d.logger.warn({ err: error, bookId: saved.id }, 'no glossary extraction queued'));
    return { bookCode: saved.code };
  }
}

/**
 * The OCR languages of a parse: the book's language when a model reads it, else English and Chinese
 * (a language detected after a first parse, e.g. Hebrew, has no model: OCR with it would refuse).
 */
function ocrLanguagesFor(language: string | null): string[] {
  return language && hasOcrLanguage(language) ? [language] : ['en', 'zh'];
}
