import pg from 'pg';
import PgBoss from 'pg-boss';
import type { Logger } from '../lib/logger.ts';
import type { MailJob } from '../engines/mail/mailer.ts';

/** Every job Yidu runs, with its payload. Payloads carry ids and small values only. */
export interface JobPayloads {
  'mail.send': MailJob;
  'maintenance.prune': Record<string, never>;
  /** Resolves the points holds of processes that died (PointsService.sweepExpired). */
  'points.sweepHolds': Record<string, never>;
  'book.parse': { requestId: string };
  'book.detectLanguage': { requestId: string };
  'book.translateTitle': { requestId: string };
  'book.save': { requestId: string };
  /** Uploads nobody drives any more: silent stages revived or failed, abandoned ones chained on (UploadService.sweep). */
  'book.sweepUploads': Record<string, never>;
  /** Pictures of a PDF's figures left for after the parse (BookCrops.run). */
  'book.crops': { bookId: number };
  'translate.page': { bookId: number; lang: string; page: number };
  /** The next pages of a whole-book translation; the job's id is the run the job row names. */
  'book.translateWhole': { jobId: string };
  /** Hands whole-book translations whose worker died to a new run. */
  'book.resumeTranslations': Record<string, never>;
  /** Names and terms of a book just stored, for its uploader's reading language (GlossaryExtraction). */
  'glossary.extract': { bookId: number; lang: string };
  /** A confirmed retranslation after a glossary change; `seqs` are the paragraphs sent back (Retranslation). */
  'glossary.retranslate': { bookId: number; lang: string; userId: number; holdKey: string | null; seqs: number[] };
  /** The admin's queue round trip: a worker picks it up and completes it. */
  'system.ping': { sentAt: number };
  /** Light checks of the engines and AI models that real use has not proven lately (set-up checklist). */
  'setup.probe': Record<string, never>;
  /** Highlights and notes the user's Readwise does not have yet (IntegrationsService.runPush). */
  'readwise.push': { userId: number };
}
export type JobName = keyof JobPayloads;

interface QueueSettings {
  retryLimit: number;
  retryDelay: number;
  retryBackoff: boolean;
  expireInSeconds: number;
}

/** Retry and time-out policy per job (pg-boss "queues"). */
const QUEUES: Record<JobName, QueueSettings> = {
  'mail.send': { retryLimit: 8, retryDelay: 5, retryBackoff: true, expireInSeconds: 120 },
  'maintenance.prune': { retryLimit: 1, retryDelay: 60, retryBackoff: false, expireInSeconds: 300 },
  'points.sweepHolds': { retryLimit: 0, retryDelay: 60, retryBackoff: false, expireInSeconds: 120 },
  // A parse that outlives its expiry (a killed worker) is retried; the handler is idempotent.
  'book.parse': { retryLimit: 2, retryDelay: 5, retryBackoff: true, expireInSeconds: 900 },
  'book.detectLanguage': { retryLimit: 3, retryDelay: 2, retryBackoff: true, expireInSeconds: 120 },
  'book.translateTitle': { retryLimit: 3, retryDelay: 2, retryBackoff: true, expireInSeconds: 120 },
  'book.save': { retryLimit: 3, retryDelay: 2, retryBackoff: true, expireInSeconds: 120 },
  'book.sweepUploads': { retryLimit: 0, retryDelay: 60, retryBackoff: false, expireInSeconds: 120 },
  // Idempotent: each batch's pictures are kept as it ends, a retry does what is left.
  'book.crops': { retryLimit: 3, retryDelay: 10, retryBackoff: true, expireInSeconds: 3600 },
  // Engine failures are handled per batch inside the job (blocks marked failed, the reader retries).
  'translate.page': { retryLimit: 2, retryDelay: 2, retryBackoff: true, expireInSeconds: 300 },
  // A run does a few pages; a failed one is retried (the lease decides who works), a lost one resumed.
  'book.translateWhole': { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 900 },
  'book.resumeTranslations': { retryLimit: 0, retryDelay: 60, retryBackoff: false, expireInSeconds: 120 },
  'glossary.extract': { retryLimit: 2, retryDelay: 30, retryBackoff: true, expireInSeconds: 300 },
  // Idempotent: a retry translates what is still pending and settles a hold that is still held.
  'glossary.retranslate': { retryLimit: 2, retryDelay: 10, retryBackoff: true, expireInSeconds: 3600 },
  'system.ping': { retryLimit: 0, retryDelay: 1, retryBackoff: false, expireInSeconds: 60 },
  'setup.probe': { retryLimit: 0, retryDelay: 60, retryBackoff: false, expireInSeconds: 120 },
  // Readwise unreachable: tried again with backoff; its 429 queues the next run after Retry-After.
  'readwise.push': { retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 300 },
};

/** How many times a job runs at most (first run + retries). */
export const maxAttempts = (name: JobName): number => QUEUES[name].retryLimit + 1;

export type JobHandler<N extends JobName> = (
  data: JobPayloads[N],
  job: { id: string; retryCount: number },
) => Promise<void>;

/**
 * The PostgreSQL-backed job queue (pg-boss). Every process can send jobs; only worker processes
 * (`--role=worker|all`) run handlers and pg-boss's maintenance. Several workers on several machines
 * share the queue safely: a job is fetched with SKIP LOCKED by exactly one of them.
 */
export class JobQueue {
  private readonly boss: PgBoss;
  private readonly logger: Logger;
  private readonly handlers = new Map<JobName, JobHandler<JobName>>();
  private started = false;
  private stopping = false;
  private readonly connectionString: string;

  constructor(connectionString: string, logger: Logger, options: { worker: boolean }) {
    this.logger = logger;
    this.connectionString = connectionString;
    this.boss = new PgBoss({
      connectionString,
      schema: 'pgboss',
      max: 4,
      supervise: options.worker,
      schedule: options.worker,
      migrate: true,
    });
    this.boss.on('error', (error) => {
      // The error as such: pg-boss's errors carry the whole database client, which is noise in a log.
      const err = {
        type: error.name,
        message: error.message,
        code: (error as { code?: string }).code,
        stack: error.stack,
      };
      // A connection ended by our own shutdown is expected, not an error.
      if (this.stopping) this.logger.debug({ err }, 'job queue error while stopping');
      else this.logger.error({ err }, 'job queue error');
    });
  }

  async start(): Promise<void> {
    await this.takingTurns(async () => {
      await this.boss.start();
      await this.createQueues();
    });
    this.started = true;
  }

  /**
   * Runs pg-boss's start and our queue creation one process at a time, under an advisory lock.
   * pg-boss's createQueue inserts a row and then alters tables, with no lock between processes, and a
   * worker's pg-boss creates its own cron queue as it starts: API and worker processes starting at
   * once on a fresh database deadlocked there (ours against ours, then ours against that one), and
   * all but one crashed.
   */
  private async takingTurns(work: () => Promise<void>): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('error', () => {});
    await client.connect();
    try {
      await client.query(`SELECT pg_advisory_lock(hashtextextended('yidu:createQueues', 0))`);
      await work();
    } finally {
      await client.end().catch(() => {});
    }
  }

  /** Creates the queues that do not exist yet (under takingTurns). */
  private async createQueues(): Promise<void> {
    for (const [name, settings] of Object.entries(QUEUES)) {
      if (!(await this.boss.getQueue(name))) await this.boss.createQueue(name, { name, ...settings });
    }
  }

  async send<N extends JobName>(
    name: N,
    data: JobPayloads[N],
    options: { id?: string; singletonKey?: string; singletonSeconds?: number; startAfter?: number } = {},
  ): Promise<string | null> {
    return this.boss.send(name, data as object, options);
  }

  /** Registers the handler of a job; call before `startWorkers`. */
  handle<N extends JobName>(name: N, handler: JobHandler<N>): void {
    this.handlers.set(name, handler as JobHandler<JobName>);
  }

  /** Starts polling for every registered job. Refuses to start when a job has no handler. */
  async startWorkers(): Promise<void> {
    const missing = (Object.keys(QUEUES) as JobName[]).filter((name) => !this.handlers.has(name));
    if (missing.length > 0) throw new Error(`jobs without a handler: ${missing.join(', ')}`);
    for (const [name, handler] of this.handlers) {
      await this.boss.work<JobPayloads[typeof name]>(
        name,
        { batchSize: 1, pollingIntervalSeconds: 0.5, includeMetadata: true },
        async ([job]) => {
          if (!job) return;
          const started = Date.now();
          try {
            await handler(job.data, { id: job.id, retryCount: job.retryCount });
            this.logger.info({ job: name, id: job.id, ms: Date.now() - started }, 'job done');
          } catch (error) {
            this.logger.warn({ job: name, id: job.id, retry: job.retryCount, err: error }, 'job failed');
            throw error;
          }
        },
      );
    }
    await this.boss.schedule('maintenance.prune', '17 * * * *', {});
    await this.boss.schedule('points.sweepHolds', '* * * * *', {});
    await this.boss.schedule('book.resumeTranslations', '* * * * *', {});
    await this.boss.schedule('book.sweepUploads', '* * * * *', {});
  }

  /** Runs a job on a cron schedule (kept in the database: one run per tick whatever the number of workers); null stops it. */
  async schedule(name: JobName, cron: string | null): Promise<void> {
    if (cron === null) await this.boss.unschedule(name);
    else await this.boss.schedule(name, cron, {});
  }

  /** The state of a job as pg-boss sees it, or undefined when it no longer exists. */
  async jobState(name: JobName, id: string): Promise<string | undefined> {
    const job = await this.boss.getJobById(name, id);
    return job?.state;
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.stopping = true;
    await this.boss.stop({ graceful: true, timeout: 10_000, wait: true });
  }
}
