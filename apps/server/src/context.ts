import { ParseHost } from './engines/parsers/isolated/parse-host.ts';
import type { Config } from './config/env.ts';
import type { Db } from './db/client.ts';
import type { SmsSender } from './engines/sms/sms.ts';
import type { FileStorage } from './engines/storage/storage.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { Logger } from './lib/logger.ts';
import { AccessEvents } from './lib/access-events.ts';
import { RateLimiter } from './lib/rate-limiter.ts';
import { UrlSigner } from './lib/signing.ts';
import { BookCrops } from './modules/books/book-crops.ts';
import { BookCropsRepo } from './modules/books/book-crops.repo.ts';
import { BooksRepo } from './modules/books/books.repo.ts';
import { BooksService, thumbKey } from './modules/books/books.service.ts';
import { UploadService } from './modules/books/upload.service.ts';
import { UploadRequestsRepo } from './modules/books/upload-requests.repo.ts';
import { MediaService } from './modules/books/media.service.ts';
import { PointsService } from './modules/points/points.service.ts';
import { ReaderService } from './modules/reader/reader.service.ts';
import { TranslationService } from './modules/translation/translation.service.ts';
import { AiService } from './modules/ai/ai.service.ts';
import { EnginesRepo } from './modules/translation/engines.repo.ts';
import { EnginesService } from './modules/translation/engines.service.ts';
import { GlossaryService } from './modules/translation/glossary.service.ts';
import { GlossaryRepo } from './modules/translation/glossary.repo.ts';
import { GlossaryExtraction } from './modules/translation/glossary-extraction.ts';
import { Retranslation } from './modules/translation/retranslation.ts';
import { TranslationReports } from './modules/translation/reports.service.ts';
import { ChapterContext } from './modules/translation/chapter-context.ts';
import { termsInAll } from './engines/translation/glossary-terms.ts';
import { MarksRepo } from './modules/marks/marks.repo.ts';
import { MarksService } from './modules/marks/marks.service.ts';
import { SharingRepo } from './modules/sharing/sharing.repo.ts';
import { SharingService } from './modules/sharing/sharing.service.ts';
import { FeedbackRepo } from './modules/feedback/feedback.repo.ts';
import { FeedbackService } from './modules/feedback/feedback.service.ts';
import { SecretBox } from './lib/secret-box.ts';
import { AiModelsService } from './modules/setup/ai-models.service.ts';
import { EngineHealth, observeEngine } from './modules/setup/health.ts';
import { SetupService } from './modules/setup/setup.service.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { CodesRepo } from './modules/auth/codes.repo.ts';
import { InvitesRepo } from './modules/auth/invites.repo.ts';
import { SessionsRepo } from './modules/auth/sessions.repo.ts';
import { VerificationService } from './modules/auth/verification.service.ts';
import { PointsRepo } from './modules/points/points.repo.ts';
import { UsersRepo } from './modules/users/users.repo.ts';
import { UsersService } from './modules/users/users.service.ts';
import { AdminService } from './modules/admin/admin.service.ts';
import { LookupService } from './modules/vocabulary/lookup.service.ts';
import { VocabularyService } from './modules/vocabulary/vocabulary.service.ts';
import { ReadingStatsService } from './modules/reading-stats/reading-stats.service.ts';
import { ExportService } from './modules/export/export.service.ts';
import { BookTranslationService } from './modules/book-translation/book-translation.service.ts';
import { DevicesRepo } from './modules/devices/devices.repo.ts';
import { DevicesService } from './modules/devices/devices.service.ts';
import { KosyncRepo } from './modules/kosync/kosync.repo.ts';
import { KosyncService } from './modules/kosync/kosync.service.ts';
import { CatalogRepo } from './modules/opds/catalog.repo.ts';
import { CatalogService } from './modules/opds/catalog.service.ts';
import { FirstShelf } from './modules/first-shelf/first-shelf.service.ts';
import { ClientWrites } from './modules/offline/client-writes.repo.ts';
import { OfflineService } from './modules/offline/offline.service.ts';
import { IntegrationsService } from './modules/integrations/integrations.service.ts';
import { OriginalPagesRepo } from './modules/reader/original-pages.repo.ts';
import { OriginalPagesService } from './modules/reader/original-pages.service.ts';

/** What the process has once it has booted: configuration, database, queue and engines. */
export interface Infrastructure {
  config: Config;
  db: Db;
  queue: JobQueue;
  logger: Logger;
  sms: SmsSender;
  storage: FileStorage;
}

/** Services wired once per process; routes and jobs receive this. */
export interface Services {
  auth: AuthService;
  verification: VerificationService;
  users: UsersService;
  admin: AdminService;
  books: BooksService;
  uploads: UploadService;
  /** The processes books are parsed in (started on first use; the worker warms one up). */
  parseHost: ParseHost;
  bookCrops: BookCrops;
  media: MediaService;
  points: PointsService;
  translation: TranslationService;
  reader: ReaderService;
  /** Books as EPUB files to keep. */
  exports: ExportService;
  /** Whole books translated on request. */
  bookTranslations: BookTranslationService;
  ai: AiService;
  engines: EnginesService;
  /** The AI models of each use (translation, explanations, annotations), changed by admins at run time. */
  aiModels: AiModelsService;
  /** What real use, probes and tests saw of every engine and AI model. */
  health: EngineHealth;
  /** The admins' set-up checklist and the engine probe. */
  setup: SetupService;
  glossary: GlossaryService;
  glossaryExtraction: GlossaryExtraction;
  retranslation: Retranslation;
  translationReports: TranslationReports;
  marks: MarksService;
  sharing: SharingService;
  feedback: FeedbackService;
  lookup: LookupService;
  vocabulary: VocabularyService;
  readingStats: ReadingStatsService;
  limiter: RateLimiter;
  signer: UrlSigner;
  /** Changes of access, which the in-memory session and book caches follow. */
  access: AccessEvents;
  /** Device passwords for e-readers (OPDS and KOReader's progress sync). */
  devices: DevicesService;
  /** KOReader's progress sync, joined to the web reader's position. */
  kosync: KosyncService;
  /** The OPDS catalogs of a reader. */
  catalog: CatalogService;
  /** Public-domain books seeded into the public library of a fresh install. */
  firstShelf: FirstShelf;
  /** Pages to keep on a device for reading offline. */
  offline: OfflineService;
  /** Highlights and notes to Readwise and Obsidian. */
  integrations: IntegrationsService;
  /** The page view of PDF books: the original file, places of its pages in the reflowed book. */
  originalPages: OriginalPagesService;
}

export function createServices(infra: Infrastructure): Services {
  const access = new AccessEvents();
  const usersRepo = new UsersRepo(infra.db, access);
  const sessions = new SessionsRepo(infra.db, access);
  const codes = new CodesRepo(infra.db);
  const invites = new InvitesRepo(infra.db);
  const points = new PointsRepo();
  const limiter = new RateLimiter(infra.db);
  const signer = new UrlSigner(infra.config.appSecret);
  const avatarUrl = (key: string) => signer.sign(`/api/media/${key}`);
  const verification = new VerificationService({ ...infra, usersRepo, sessions, codes, limiter });
  const auth = new AuthService({
    ...infra,
    usersRepo,
    sessions,
    invites,
    points,
    limiter,
    verification,
    avatarUrl,
    access,
  });
  const booksRepo = new BooksRepo(infra.db, access);
  const cropsRepo = new BookCropsRepo(infra.db);
  const books = new BooksService({
    repo: booksRepo,
    crops: cropsRepo,
    storage: infra.storage,
    signer,
    logger: infra.logger,
    access,
  });
  const pointsService = new PointsService(infra.db, infra.logger);
  const health = new EngineHealth({ db: infra.db, logger: infra.logger });
  const translation = new TranslationService({
    db: infra.db,
    logger: infra.logger,
    settings: infra.config.translationEngines,
    observe: (engine, settings) => observeEngine(engine, settings.apiKey, health),
  });
  const box = new SecretBox(infra.config.appSecret);
  const engines = new EnginesService({
    db: infra.db,
    repo: new EnginesRepo(infra.db),
    config: infra.config,
    box,
    logger: infra.logger,
  });
  const aiModels = new AiModelsService({
    db: infra.db,
    config: infra.config,
    box,
    logger: infra.logger,
    engines,
    health,
  });
  // Books are parsed in processes of their own: a hostile file can fail its upload, never the server.
  const parseHost = new ParseHost({
    memoryLimitMb: infra.config.books.parseMemoryMb,
    maxProcesses: infra.config.books.parseProcesses,
    onProcessDied: ({ reason, stderr }) =>
      infra.logger.warn({ reason, stderr: stderr.slice(-1000) }, 'a parse process ended during a parse'),
  });
  const queueCrops = async (bookId: number) => {
    await infra.queue.send('book.crops', { bookId });
  };
  const bookCrops = new BookCrops({
    config: infra.config,
    repo: cropsRepo,
    books: booksRepo,
    storage: infra.storage,
    parseHost,
    logger: infra.logger,
    queueCrops,
  });
  const uploads = new UploadService({
    config: infra.config,
    parseHost,
    onCropsPending: queueCrops,
    repo: booksRepo,
    requests: new UploadRequestsRepo(infra.db, access),
    storage: infra.storage,
    queue: infra.queue,
    logger: infra.logger,
    storeCover: (data) => books.storeCover(data),
    coverUrl: (key) => books.mediaUrl(thumbKey(key)),
    points: pointsService,
    limiter,
    translateTitle: async (text, from, to, userId) =>
      translation.translateTitle(text, from, to, (await usersRepo.findById(userId))?.translation_engine),
    onBookReady: async (bookId, lang) => {
      await infra.queue.send('glossary.extract', { bookId, lang });
    },
  });
  const glossary = new GlossaryService({
    repo: new GlossaryRepo(infra.db),
    books,
    points: pointsService,
    logger: infra.logger,
  });
  const reader = new ReaderService({
    db: infra.db,
    books,
    translation,
    glossary,
    chapterContext: new ChapterContext({
      db: infra.db,
      translation,
      llm: () => aiModels.client('explanation'),
      logger: infra.logger,
    }),
    points: pointsService,
    queue: infra.queue,
    logger: infra.logger,
  });
  const readingStats = new ReadingStatsService({ db: infra.db, books });
  const kosyncRepo = new KosyncRepo(infra.db);
  // Exports sent whole are recorded for the progress sync (a device names a book by its bytes).
  const exports: ExportService = new ExportService({
    db: infra.db,
    books,
    points: pointsService,
    storage: infra.storage,
    logger: infra.logger,
    onServed: (served): Promise<void> => kosync.recordExport(served),
  });
  const kosync: KosyncService = new KosyncService({
    repo: kosyncRepo,
    books,
    exports,
    marks: new MarksRepo(infra.db),
    storage: infra.storage,
    logger: infra.logger,
  });
  const integrations = new IntegrationsService({
    db: infra.db,
    books,
    points: pointsService,
    queue: infra.queue,
    box,
    logger: infra.logger,
    publicUrl: infra.config.publicUrl,
    readwiseUrl: infra.config.readwiseUrl,
  });
  return {
    auth,
    verification,
    users: new UsersService({
      usersRepo,
      auth,
      enabledEngines: () => translation.enabledEngines(),
      avatarUrl,
      storage: infra.storage,
      db: infra.db,
      logger: infra.logger,
      access,
    }),
    admin: new AdminService({
      ...infra,
      usersRepo,
      invites,
      auth,
      enabledEngines: () => translation.enabledEngines(),
      aiConfigured: () => aiModels.client('explanation') !== undefined,
    }),
    books,
    uploads,
    parseHost,
    bookCrops,
    media: new MediaService({ signer, storage: infra.storage, books, usersRepo }),
    points: pointsService,
    translation,
    reader,
    exports,
    bookTranslations: new BookTranslationService({
      db: infra.db,
      books,
      reader,
      glossary,
      points: pointsService,
      translation,
      queue: infra.queue,
      logger: infra.logger,
    }),
    engines,
    aiModels,
    health,
    setup: new SetupService({ config: infra.config, logger: infra.logger, engines, aiModels, health, invites }),
    glossary,
    glossaryExtraction: new GlossaryExtraction({
      glossary,
      books,
      translation,
      llm: () => aiModels.client('explanation'),
      logger: infra.logger,
    }),
    retranslation: new Retranslation({
      db: infra.db,
      glossary,
      books,
      points: pointsService,
      queue: infra.queue,
      translatePage: (bookId, lang, page) => reader.translatePage(bookId, lang, page),
      logger: infra.logger,
    }),
    translationReports: new TranslationReports({
      db: infra.db,
      books,
      glossary,
      translation,
      llm: () => aiModels.client('explanation'),
      logger: infra.logger,
    }),
    marks: new MarksService({
      repo: new MarksRepo(infra.db),
      books,
      writes: new ClientWrites(infra.db),
      onWritten: (userId) =>
        void integrations
          .marksChanged(userId)
          .catch((error: unknown) => infra.logger.warn({ err: error }, 'queueing a Readwise push failed')),
    }),
    sharing: new SharingService({
      repo: new SharingRepo(infra.db),
      books,
      publicUrl: infra.config.publicUrl,
      logger: infra.logger,
    }),
    feedback: new FeedbackService({
      repo: new FeedbackRepo(infra.db),
      storage: infra.storage,
      signer,
      logger: infra.logger,
    }),
    ai: new AiService({
      db: infra.db,
      books,
      points: pointsService,
      logger: infra.logger,
      llm: (use) => aiModels.client(use),
      glossaryTerms: async (bookId, language, texts) => termsInAll(texts, await glossary.entries(bookId, language)),
    }),
    lookup: new LookupService({
      db: infra.db,
      books,
      points: pointsService,
      translation,
      logger: infra.logger,
      llm: () => aiModels.client('explanation'),
      onLookup: (userId, bookId) => readingStats.lookedUp(userId, bookId),
    }),
    vocabulary: new VocabularyService({ db: infra.db, books, points: pointsService }),
    readingStats,
    limiter,
    signer,
    access,
    devices: new DevicesService({
      repo: new DevicesRepo(infra.db, access),
      limiter,
      config: infra.config,
      access,
    }),
    kosync,
    catalog: new CatalogService({
      repo: new CatalogRepo(infra.db),
      books,
      exports,
      points: pointsService,
      kosync,
      kosyncRepo,
      storage: infra.storage,
    }),
    firstShelf: new FirstShelf({
      db: infra.db,
      config: infra.config,
      parseHost,
      onCropsPending: queueCrops,
      repo: booksRepo,
      storage: infra.storage,
      logger: infra.logger,
      storeCover: (data) => books.storeCover(data),
    }),
    offline: new OfflineService({ db: infra.db, books, points: pointsService }),
    integrations,
    originalPages: new OriginalPagesService({ books, repo: new OriginalPagesRepo(infra.db) }),
  };
}
