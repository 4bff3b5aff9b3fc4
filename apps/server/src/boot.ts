import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { buildApp } from './app.ts';
import type { Config } from './config/env.ts';
import { readOrCreateSecret } from './config/secret.ts';
import { createServices, type Infrastructure, type Services } from './context.ts';
import { createDb } from './db/client.ts';
import { startEmbeddedPostgres, type EmbeddedServer } from './db/embedded.ts';
import { migrateToLatest } from './db/migrate.ts';
import { OutboxMailer, SmtpMailer, type Mailer } from './engines/mail/mailer.ts';
import { OutboxSms, WebhookSms } from './engines/sms/sms.ts';
import { LocalStorage, S3Storage } from './engines/storage/storage.ts';
import { sweepDataDirTemporaryFiles } from './engines/storage/disk.ts';
import { registerBookJobs } from './modules/books/books.jobs.ts';
import { JobQueue } from './jobs/queue.ts';
import type { Logger } from './lib/logger.ts';
import { registerSystemJobs } from './modules/system/mail.jobs.ts';
import { registerPointsJobs } from './modules/points/points.jobs.ts';
import { registerBookTranslationJobs } from './modules/book-translation/book-translation.jobs.ts';
import { registerTranslationJobs } from './modules/translation/translation.jobs.ts';
import { Notifier, RECONNECTED_TOPIC } from './lib/notifier.ts';
import { ENGINES_TOPIC } from './modules/translation/engines.service.ts';
import { ACCESS_TOPIC, type AccessChange } from './lib/access-events.ts';
import { PAGES_TOPIC } from './modules/reader/reader.service.ts';
import { AI_MODELS_TOPIC } from './modules/setup/ai-models.service.ts';
import { registerSetupJobs, scheduleProbes } from './modules/setup/setup.jobs.ts';
import { registerIntegrationsJobs } from './modules/integrations/integrations.jobs.ts';

export interface Running {
  config: Config;
  infra: Infrastructure;
  services: Services;
  /** The HTTP app (roles api and all). Not listening yet: call `app.listen`. */
  app: FastifyInstance | undefined;
  mailer: Mailer | undefined;
  stop(): Promise<void>;
}

/**
 * Brings Yidu up for one role: database (embedded unless DATABASE_URL), migrations, job queue,
 * services, the first admin, then the HTTP app and/or the workers. `stop` undoes it in reverse.
 */
export async function boot(config: Config, logger: Logger): Promise<Running> {
  const cleanups: (() => Promise<void> | void)[] = [];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        logger.error({ err: error }, 'error while stopping');
      }
    }
    cleanups.length = 0;
  };

  try {
    if (!config.appSecret) config.appSecret = await readOrCreateSecret(config.dataDir, 'app-secret');

    let databaseUrl = config.databaseUrl;
    if (!databaseUrl) {
      const embedded: EmbeddedServer = await startEmbeddedPostgres({
        dataDir: config.dataDir,
        port: config.embeddedPgPort,
        logger,
      });
      cleanups.push(() => embedded.stop());
      databaseUrl = embedded.url;
    }
    const { db } = createDb(databaseUrl);
    cleanups.push(() => db.destroy());
    const applied = await migrateToLatest(db as unknown as Kysely<unknown>);
    if (applied.length > 0) logger.info({ applied }, 'database migrated');

    const isWorker = config.role !== 'api';
    const queue = new JobQueue(databaseUrl, logger, { worker: isWorker });
    await queue.start();
    cleanups.push(() => queue.stop());

    const outbox = path.join(config.dataDir, 'outbox');
    const sms = config.sms.webhookUrl
      ? new WebhookSms(config.sms.webhookUrl, config.sms.webhookToken)
      : new OutboxSms(outbox, logger);
    const storage = config.s3 ? new S3Storage(config.s3) : new LocalStorage(path.join(config.dataDir, 'files'));
    // Temporary files of writes a killed process never finished (old ones only: another process of
    // this deployment may be writing right now), in the background: a large files tree takes a while.
    void sweepDataDirTemporaryFiles(config.dataDir, logger);
    // A process of a split deployment (--role=api or worker) reading and writing files nobody else sees.
    if (!config.s3 && config.role !== 'all')
      logger.warn(
        { filesDir: path.join(config.dataDir, 'files') },
        'files are kept under DATA_DIR: every API and worker process must share that directory, or set S3_BUCKET',
      );
    const infra: Infrastructure = { config, db, queue, logger, sms, storage };
    const services = createServices(infra);
    // Engine health seen in real use is written every few seconds, and once more at the end.
    services.health.start();
    cleanups.push(() => services.health.stop());

    // Engine settings saved by admins override the environment; every process follows their changes.
    const notifier = new Notifier(databaseUrl, logger);
    await notifier.start();
    cleanups.push(() => notifier.stop());
    const reloadEngines = async () => services.translation.setSettings(await services.engines.load());
    await reloadEngines();
    notifier.subscribe(PAGES_TOPIC, (change) =>
      services.reader.forget(change as { bookId: number; lang: string; page: number }),
    );
    // New engines may work where the old failed: failed blocks are retried at once (not at their next
    // backoff), with the new settings, hence only after the reload.
    const reloadEnginesLogged = () =>
      void reloadEngines()
        .then(() => services.reader.enginesChanged())
        .catch((error) => logger.error({ err: error }, 'engine settings reload failed'));
    notifier.subscribe(ENGINES_TOPIC, reloadEnginesLogged);
    // AI models saved by admins: every process builds its clients again.
    await services.aiModels.reload();
    const reloadAiModels = () =>
      void services.aiModels.reload().catch((error) => logger.error({ err: error }, 'AI model settings reload failed'));
    notifier.subscribe(AI_MODELS_TOPIC, reloadAiModels);
    notifier.subscribe(ACCESS_TOPIC, (change) => services.access.emit(change as AccessChange));
    notifier.subscribe(RECONNECTED_TOPIC, () => {
      services.access.emit(null);
      services.reader.forgetAll();
      reloadEnginesLogged();
      reloadAiModels();
    });

    if (config.accounts.admin) {
      const result = await services.auth.ensureAdmin(config.accounts.admin);
      if (result === 'created') logger.info({ account: config.accounts.admin.account }, 'admin account created');
    }

    // Parse processes (which hold pdf.js, its helper threads and the OCR engine) end with the worker.
    cleanups.push(() => services.parseHost.close());

    let mailer: Mailer | undefined;
    if (isWorker) {
      mailer = config.mail.smtpUrl
        ? new SmtpMailer(config.mail.smtpUrl, config.mail.from)
        : new OutboxMailer(outbox, config.mail.from, logger);
      const activeMailer = mailer;
      cleanups.push(() => activeMailer.close());
      registerSystemJobs(queue, { mailer, limiter: services.limiter, dataDir: config.dataDir, logger });
      registerBookJobs(queue, services.uploads, services.reader, services.bookCrops);
      registerPointsJobs(queue, services.points);
      registerSetupJobs(queue, services.setup);
      registerBookTranslationJobs(queue, services.bookTranslations);
      registerTranslationJobs(queue, {
        extraction: services.glossaryExtraction,
        retranslation: services.retranslation,
      });
      registerIntegrationsJobs(queue, services.integrations);
      await queue.startWorkers();
      await scheduleProbes(queue, config.engineProbeMinutes);
      logger.info({ mail: mailer.name, sms: sms.name }, 'workers started');
      // A parse process loads pdf.js (0.2-0.5 s) when it starts: paid now rather than by the first PDF uploaded.
      services.parseHost.warmUp();
      // A fresh install's public library gets its first shelf, and files stored before KOReader's digest
      // of them was kept get it, in the background; a stop waits for them to let go of the database.
      const background = Promise.allSettled([
        services.firstShelf.seed().catch((error) => logger.error({ err: error }, 'the first shelf was not seeded')),
        services.kosync.digestStoredFiles().catch((error) => logger.warn({ err: error }, 'file digests not filled in')),
      ]);
      cleanups.push(() => background.then(() => undefined));
    }

    let app: FastifyInstance | undefined;
    if (config.role !== 'worker') {
      app = await buildApp(infra, services, notifier);
      const httpApp = app;
      // Cleanups run in reverse: the HTTP server stops taking requests first, the database goes last.
      cleanups.push(() => httpApp.close());
    }
    return { config, infra, services, app, mailer, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
