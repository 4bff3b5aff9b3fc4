import { randomBytes, randomUUID } from 'node:crypto';
import {
  findLanguage,
  STAGE_FAILURE_MESSAGES,
  UPLOAD_STAGES,
  type SaveBookBody,
  type StageState,
  type UploadCount,
  type UploadedFile,
  type UnfinishedUpload,
  type UploadStage,
} from '@yidu/shared';
import type { UploadRequestRow } from '../../db/schema.ts';
import type { FileStorage } from '../../engines/storage/storage.ts';
import { fail } from '../../http/errors.ts';
import { maxAttempts, type JobName, type JobQueue } from '../../jobs/queue.ts';
import type { Logger } from '../../lib/logger.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { BooksRepo } from './books.repo.ts';
import { bookInfo, FileMetadataStore } from './file-metadata.ts';
import { UploadFiles } from './upload-files.ts';
import { StageFailure, UploadStages, type StageDeps, type WorkStage } from './upload-stages.ts';
import type { UnfinishedRow } from './upload-requests.repo.ts';

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
/** The work stage that follows a stage finished (infoSaving: the request was just made). */
const STAGE_AFTER: Partial<Record<string, WorkStage>> = { infoSaving: 'parsingFile', ...NEXT_STAGE };

const stageIndex = (stage: string) => UPLOAD_STAGES.indexOf(stage as UploadStage);

/**
 * A request waiting between stages this long was left by its uploader (the tab was closed): the sweep
 * chains its remaining stages, and the book lands in the library with the title it has.
 */
export const ABANDONED_AFTER_MINUTES = 10;
/** Requests the sweep takes on per round (it runs every minute). */
const SWEEP_BATCH = 100;

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
  private readonly files: UploadFiles;
  private readonly stages: UploadStages;
  constructor(deps: Deps) {
    this.d = deps;
    this.metadata = new FileMetadataStore(deps);
    this.files = new UploadFiles(deps, this.metadata);
    this.stages = new UploadStages(deps);
  }

  // ---------- files ----------

  counts(ip: string): Promise<UploadCount> {
    return this.files.counts(ip);
  }

  upload(userId: number, ip: string, file: { filename: string; data: Buffer }): Promise<UploadedFile> {
    return this.files.upload(userId, ip, file);
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
    // The book went to the library as soon as its title was translated: the answer to the title
    // question, whenever it comes, renames it (once).
    const title = params.bookName?.trim().slice(0, 300);
    if (stage === 'saving' && title && stageIndex(request.stage) >= stageIndex('saving')) {
      if (await this.d.requests.chooseTitle(request.id, title)) request = (await this.d.repo.findRequest(request.id))!;
    }
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
    if (title) request = await this.d.repo.updateRequest(request.id, { book_name: title });
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
    if (!request || request.status === 'discarded') throw fail('notFound');
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
    if (!request || request.user_id !== userId || request.status === 'discarded') throw fail('notFound');
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
    if (request.status === 'discarded') throw fail('notFound');
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

  // ---------- requests nobody drives any more ----------

  /** The caller's uploads that are not a book yet (running, waiting for the next stage, or failed). */
  async unfinished(userId: number): Promise<UnfinishedUpload[]> {
    const rows = await this.d.requests.unfinished(userId, 20);
    return rows.map((r: UnfinishedRow) => ({
      requestId: r.id,
      bookName: r.book_name,
      stage: r.stage as UploadStage,
      status: r.status,
      ...(r.error_key ? { errorKey: r.error_key } : {}),
      language: r.target_language,
      fileName: r.file_name,
      format: r.format,
      createdAt: r.created_at.toISOString(),
      updatedAt: r.updated_at.toISOString(),
    }));
  }

  /** Gives an unfinished request up (not while a stage runs: stageNotReady). */
  async discard(userId: number, requestId: string): Promise<void> {
    const request = await this.ownRequest(userId, requestId);
    if (request.stage === 'completed') throw fail('stageNotReady', { stage: request.stage, status: request.status });
    if (!(await this.d.requests.discard(userId, requestId))) {
      const now = await this.ownRequest(userId, requestId);
      throw fail('stageNotReady', { stage: now.stage, status: now.status });
    }
  }

  /**
   * Run by the worker every minute, so that no request stays unfinished for ever when nobody polls
   * it: a running stage whose worker went silent is started again or failed (checkAlive), and a
   * request left between stages (a closed tab) has its remaining stages chained by the server, as
   * Path A does: its book lands in the uploader's library under the title it has. Failed requests
   * stay for their uploader to retry or discard.
   */
  async sweep(): Promise<{ revived: number; chained: number }> {
    const silent = await this.d.requests.silentRunning(this.d.config.books.stageStaleSeconds, SWEEP_BATCH);
    for (const request of silent) await this.checkAlive(request);
    const abandoned = await this.d.requests.abandoned(ABANDONED_AFTER_MINUTES, SWEEP_BATCH);
    let chained = 0;
    for (const request of abandoned) {
      const next = request.status === 'failed' ? 'saving' : STAGE_AFTER[request.stage];
      if (!next) continue;
      await this.d.requests.chainOn(request.id);
      // Conditional on the request being where it was seen: a tab that came back first wins.
      const started = await this.d.repo.startStage(request.id, request.stage, request.status, next);
      if (!started) continue;
      await this.enqueue(started, next);
      chained += 1;
      this.d.logger.info({ requestId: request.id, stage: next }, 'an abandoned upload goes on by itself');
    }
    return { revived: silent.length, chained };
  }

  // ---------- stage work (run by the worker) ----------

  /** Runs one stage's job: skips stale duplicates, records success or failure, chains Path A. */
  async runStage(stage: WorkStage, requestId: string, attempt: { id: string; retryCount: number }): Promise<void> {
    const request = await this.d.repo.findRequest(requestId);
    // Only the request's current job may work on it: a job replaced after a lost worker bows out.
    if (!request || request.stage !== stage || request.status !== 'running' || request.job_id !== attempt.id) return;
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
      // Once its title is translated a book is saved at once, also on Path B: the uploader's answer to
      // the title question renames it later, and a closed tab no longer leaves it out of the library.
      if (next && (done.auto_chain || stage === 'translatingTitle')) await this.advance(done, next);
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
