import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import {
  findLanguage,
  STAGE_FAILURE_MESSAGES,
  UPLOAD_STAGES,
  type SaveBookBody,
  type StageState,
  type UploadCount,
  type UploadedFile,
  type UploadStage,
} from '@yidu/shared';
import type { UploadRequestRow } from '../../db/schema.ts';
import { sniff } from '../../engines/parsers/sniff.ts';
import type { FileStorage } from '../../engines/storage/storage.ts';
import { fail } from '../../http/errors.ts';
import { maxAttempts, type JobName, type JobQueue } from '../../jobs/queue.ts';
import type { Logger } from '../../lib/logger.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { BooksRepo } from './books.repo.ts';
import { sha256InSlices } from '../../lib/hash.ts';
import { bookInfo, FileMetadataStore } from './file-metadata.ts';
import { StageFailure, UploadStages, type StageDeps, type WorkStage } from './upload-stages.ts';

/** The stage each Path B call drives, the stage that must be done before it, and its job. */
const STAGE_CALLS = {
  parsingFile: { after: 'infoSaving', job: 'book.parse' },
  detectingLanguage: { after: 'parsingFile', job: 'book.detectLanguage' },
  translatingTitle: { after: 'detectingLanguage', job: 'book.translateTitle' },
  saving: { after: 'translatingTitle', job: 'book.save' },
} as const satisfies Partial<Record<UploadStage, { after: UploadStage; job: JobName }>>;
const WORK_STAGES = Object.keys(STAGE_CALLS) as WorkStage[];
const NEXT_STAGE: Partial<Record<WorkStage, WorkStage>> = {
  parsingFile: 'detectingLanguage',
  detectingLanguage: 'translatingTitle',
  translatingTitle: 'saving',
};

const stageIndex = (stage: string) => UPLOAD_STAGES.indexOf(stage as UploadStage);

/** The counters of the per-IP upload limits (SPEC §9: per day and per month). */
const uploadKeys = (ip: string) => ({ day: `uploads:day:${ip}`, month: `uploads:month:${ip}` });

interface Deps extends StageDeps {
  repo: BooksRepo;
  storage: FileStorage;
  queue: JobQueue;
  logger: Logger;
  /** The signed URL of a stored cover's thumbnail. */
  coverUrl: (key: string) => string | null;
  /** Keeps the per-IP upload counters (see upload()). */
  limiter: RateLimiter;
}

/**
 * The upload pipeline of SPEC §4.1. Each stage is a durable job whose state lives in
 * `upload_requests`: a restarted worker picks the job up again (handlers are idempotent) and a
 * stage that can no longer finish is marked failed, so a request is never stuck and Retry resumes it.
 */
export class UploadService {
  private readonly d: Deps;
  private readonly metadata: FileMetadataStore;
  private readonly stages: UploadStages;
  constructor(deps: Deps) {
    this.d = deps;
    this.metadata = new FileMetadataStore(deps);
    this.stages = new UploadStages(deps);
  }

  // ---------- files ----------

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

  // ---------- requests and stages ----------

  async saveNew(
    userId: number,
    body: SaveBookBody,
    options: { autoChain?: boolean } = {},
  ): Promise<{ requestId: string }> {
    const file = await this.d.repo.findFile(body.fileId);
    if (!file) throw fail('fileMissing');
    const target = body.language ? findLanguage(body.language) : undefined;
    if (body.language && !target) throw fail('noSuchLanguage');
    const original = body.originalLanguage ? findLanguage(body.originalLanguage) : undefined;
    if (body.originalLanguage && !original) throw fail('noSuchLanguage');
    const info = bookInfo(body, file, await this.metadata.of(file));
    // Every request is covered by an upload of the file, counted against the limits, that no other
    // request has used: saving the same upload twice (or a file someone else uploaded) parses nothing.
    const request = await this.d.repo.createRequestFromUpload({
      id: `r${randomBytes(12).toString('hex')}`,
      user_id: userId,
      file_id: file.id,
      book_name: info.title,
      book_author: info.author,
      book_describe: info.description,
      book_status: body.bookStatus,
      force_ocr: body.forceOCR ?? false,
      auto_split_footnote: body.autoSplitFootnote ?? false,
      target_language: target?.code ?? null,
      original_language: original?.code ?? null,
      auto_chain: options.autoChain ?? false,
      stage: 'infoSaving',
      status: 'done',
    });
    if (!request) throw fail('fileMissing', { reason: 'noUnsavedUpload' });
    if (options.autoChain) await this.advance(request, 'parsingFile');
    return { requestId: request.id };
  }

  /** One Path B stage call: starts the stage when it has not started, and answers its state. */
  async stage(
    userId: number,
    requestId: string,
    stage: WorkStage,
    params: { bookName?: string; userLanguage?: string } = {},
  ): Promise<StageState> {
    let request = await this.ownRequest(userId, requestId);
    if (stageIndex(request.stage) > stageIndex(stage)) return this.stateOf(request, stage);
    if (request.stage === stage) {
      request = await this.checkAlive(request);
      return this.stateOf(request, stage);
    }
    if (params.userLanguage) {
      const language = findLanguage(params.userLanguage);
      if (!language) throw fail('noSuchLanguage');
      request = await this.d.repo.updateRequest(request.id, { target_language: language.code });
    }
    if (params.bookName?.trim())
      request = await this.d.repo.updateRequest(request.id, { book_name: params.bookName.trim().slice(0, 300) });
    const ready =
      request.stage === STAGE_CALLS[stage].after &&
      (request.status === 'done' || (stage === 'saving' && request.status === 'failed'));
    if (!ready) throw fail('stageNotReady', { stage: request.stage, status: request.status });
    return this.stateOf(await this.advance(request, stage), stage);
  }

  /** The state of the request's current stage (Path A polling). */
  async status(userId: number, requestId: string): Promise<StageState> {
    const request = await this.checkAlive(await this.ownRequest(userId, requestId));
    return this.stateOf(request, request.stage as UploadStage);
  }

  /** Retry from the failed stage. */
  async retry(userId: number, requestId: string, options: { asAdmin?: boolean } = {}): Promise<StageState> {
    const request = options.asAdmin
      ? await this.d.repo.findRequest(requestId)
      : await this.ownRequest(userId, requestId);
    if (!request) throw fail('notFound');
    if (request.status !== 'failed' || !WORK_STAGES.includes(request.stage as WorkStage)) {
      return this.stateOf(request, request.stage as UploadStage);
    }
    const stage = request.stage as WorkStage;
    const started = await this.d.repo.startStage(request.id, stage, 'failed', stage);
    if (started) await this.enqueue(started, stage);
    return this.stateOf((await this.d.repo.findRequest(request.id))!, stage);
  }

  private async ownRequest(userId: number, requestId: string): Promise<UploadRequestRow> {
    const request = await this.d.repo.findRequest(requestId);
    if (!request || request.user_id !== userId) throw fail('notFound');
    return request;
  }

  private async advance(request: UploadRequestRow, stage: WorkStage): Promise<UploadRequestRow> {
    const started = await this.d.repo.startStage(request.id, request.stage, request.status, stage);
    if (!started) return (await this.d.repo.findRequest(request.id))!;
    return this.enqueue(started, stage);
  }

  /** The job id is written before the job exists, so that the job always finds itself the owner. */
  private async enqueue(request: UploadRequestRow, stage: WorkStage): Promise<UploadRequestRow> {
    const jobId = randomUUID();
    const updated = await this.d.repo.updateRequest(request.id, { job_id: jobId });
    await this.d.queue.send(STAGE_CALLS[stage].job, { requestId: request.id }, { id: jobId });
    return updated;
  }

  /**
   * Keeps a request from hanging when its worker is gone. A running stage whose worker stopped
   * beating (killed mid-parse) is started again, up to three times; one pg-boss gave up on is marked
   * failed, so that the user sees Retry instead of an endless spinner.
   */
  private async checkAlive(request: UploadRequestRow): Promise<UploadRequestRow> {
    if (request.status !== 'running' || !request.job_id || !WORK_STAGES.includes(request.stage as WorkStage))
      return request;
    const stage = request.stage as WorkStage;
    const state = await this.d.queue.jobState(STAGE_CALLS[stage].job, request.job_id);
    const silentMs = Date.now() - request.updated_at.getTime();
    const lostWorker = state === 'active' && silentMs > this.d.config.books.stageStaleSeconds * 1000;
    if (lostWorker || state === undefined) {
      const recoveries = Number((request.results as Record<string, unknown>)._recoveries ?? 0);
      if (recoveries < 3) {
        this.d.logger.warn({ requestId: request.id, stage, silentMs }, 'restarting a stage whose worker was lost');
        await this.d.repo.mergeResults(request.id, { _recoveries: recoveries + 1 });
        return this.enqueue(request, stage);
      }
    }
    if (lostWorker || state === 'failed' || state === 'cancelled' || state === undefined || state === 'completed') {
      const fresh = (await this.d.repo.findRequest(request.id))!;
      if (fresh.status !== 'running') return fresh;
      // completed while still "running" means the handler saw a stale request; either way it is over.
      return this.d.repo.updateRequest(request.id, {
        status: 'failed',
        error_key: 'internalError',
        error_detail: `job ${lostWorker ? 'lost' : (state ?? 'missing')}`,
      });
    }
    return request;
  }

  private stateOf(request: UploadRequestRow, stage: UploadStage): StageState {
    const results = request.results as Record<string, Record<string, unknown>>;
    const current = request.stage === stage;
    const status = current ? request.status : 'done';
    const state: StageState = { requestId: request.id, stage, status };
    if (current && status === 'running' && request.progress !== null) state.progress = request.progress;
    if (status === 'failed') {
      state.message = STAGE_FAILURE_MESSAGES[stage] ?? 'Failed';
      if (request.error_key) state.errorKey = request.error_key;
    }
    if (status === 'done' && results[stage]) state.result = results[stage];
    return state;
  }

  // ---------- stage work (run by the worker) ----------

  /** Runs one stage's job: skips stale duplicates, records success or failure, chains Path A. */
  async runStage(stage: WorkStage, requestId: string, attempt: { id: string; retryCount: number }): Promise<void> {
    const request = await this.d.repo.findRequest(requestId);
    // Only the request's current job may work on it: a job replaced after a lost worker bows out.
    if (!request || request.stage !== stage || request.status !== 'running' || request.job_id !== attempt.id) return;
    // Which worker took the stage (with several, the one to look at when it goes silent).
    this.d.logger.info({ requestId, stage, job: attempt.id }, 'upload stage started');
    // The heartbeat tells pollers this stage still has a live worker (see checkAlive).
    const beat = setInterval(
      () => void this.d.repo.heartbeat(request.id, attempt.id).catch(() => {}),
      (this.d.config.books.stageStaleSeconds * 1000) / 4,
    );
    try {
      const result = await this.stages.run(stage, request);
      await this.d.repo.mergeResults(request.id, { [stage]: result });
      const done = await this.d.repo.updateRequest(
        request.id,
        stage === 'saving' ? { stage: 'completed', status: 'done', progress: 1 } : { status: 'done', progress: 1 },
      );
      this.d.logger.info({ requestId, stage }, 'upload stage done');
      const next = NEXT_STAGE[stage];
      if (done.auto_chain && next) await this.advance(done, next);
    } catch (error) {
      const willRetry =
        !(error instanceof StageFailure) && attempt.retryCount + 1 < maxAttempts(STAGE_CALLS[stage].job);
      if (willRetry) throw error; // pg-boss runs it again with backoff
      const key = error instanceof StageFailure ? error.key : 'internalError';
      this.d.logger.warn({ requestId, stage, key, err: error }, 'upload stage failed');
      if (request.auto_chain && stage === 'translatingTitle') {
        // Path A goes on without a translated title (the original stays), never showing "failed" in
        // between: a client polling the status would otherwise stop at that moment.
        await this.d.repo.mergeResults(request.id, { [stage]: { errorKey: key } });
        await this.advance((await this.d.repo.findRequest(request.id))!, 'saving');
        return;
      }
      await this.d.repo.updateRequest(request.id, {
        status: 'failed',
        error_key: key,
        error_detail: String((error as Error).message).slice(0, 500),
      });
    } finally {
      clearInterval(beat);
    }
  }
}
