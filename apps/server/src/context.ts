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
import { BooksRepo } from './modules/books/books.repo.ts';
import { BooksService, thumbKey } from './modules/books/books.service.ts';
import { UploadService } from './modules/books/upload.service.ts';
import { MediaService } from './modules/books/media.service.ts';
import { PointsService } from './modules/points/points.service.ts';
import { ReaderService } from './modules/reader/reader.service.ts';
import { TranslationService } from './modules/translation/translation.service.ts';
import { AiService } from './modules/ai/ai.service.ts';
import { EnginesService } from './modules/translation/engines.service.ts';
import { GlossaryService } from './modules/translation/glossary.service.ts';
import { GlossaryRepo } from './modules/translation/glossary.repo.ts';
import { GlossaryExtraction } from './modules/translation/glossary-extraction.ts';
import { Retranslation } from './modules/translation/retranslation.ts';
import { TranslationReports } from './modules/translation/reports.service.ts';
import { ChapterContext } from './modules/translation/chapter-context.ts';
import { termsInAll } from './engines/translation/glossary-terms.ts';
import { MarksService } from './modules/marks/marks.service.ts';
import { SharingService } from './modules/sharing/sharing.service.ts';
import { FeedbackService } from './modules/feedback/feedback.service.ts';
import { SecretBox } from './lib/secret-box.ts';
import { createLlmClient } from './engines/llm/openai-compatible.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { CodesRepo } from './modules/auth/codes.repo.ts';
import { InvitesRepo } from './modules/auth/invites.repo.ts';
import { SessionsRepo } from './modules/auth/sessions.repo.ts';
import { VerificationService } from './modules/auth/verification.service.ts';
import { PointsRepo } from './modules/points/points.repo.ts';
import { UsersRepo } from './modules/users/users.repo.ts';
import { UsersService } from './modules/users/users.service.ts';
import { AdminService } from './modules/admin/admin.service.ts';

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
  media: MediaService;
  points: PointsService;
  translation: TranslationService;
  reader: ReaderService;
  ai: AiService;
  engines: EnginesService;
  glossary: GlossaryService;
  glossaryExtraction: GlossaryExtraction;
  retranslation: Retranslation;
  translationReports: TranslationReports;
  marks: MarksService;
  sharing: SharingService;
  feedback: FeedbackService;
  limiter: RateLimiter;
  signer: UrlSigner;
  /** Changes of access, which the in-memory session and book caches follow. */
  access: AccessEvents;
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
  const books = new BooksService({ repo: booksRepo, storage: infra.storage, signer, logger: infra.logger, access });
  const pointsService = new PointsService(infra.db, infra.logger);
  const translation = new TranslationService({
    db: infra.db,
    logger: infra.logger,
    settings: infra.config.translationEngines,
  });
  const engines = new EnginesService({
    db: infra.db,
    config: infra.config,
    box: new SecretBox(infra.config.appSecret),
    logger: infra.logger,
  });
  // Books are parsed in processes of their own: a hostile file can fail its upload, never the server.
  const parseHost = new ParseHost({
    memoryLimitMb: infra.config.books.parseMemoryMb,
    maxProcesses: infra.config.books.parseProcesses,
    onProcessDied: ({ reason, stderr }) =>
      infra.logger.warn({ reason, stderr: stderr.slice(-1000) }, 'a parse process ended during a parse'),
  });
  const uploads = new UploadService({
    config: infra.config,
    parseHost,
    repo: booksRepo,
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
  const llm = infra.config.llm
    ? createLlmClient({
        baseUrl: infra.config.llm.baseUrl,
        model: infra.config.llm.model,
        timeoutMs: 60_000,
        ...(infra.config.llm.apiKey ? { apiKey: infra.config.llm.apiKey } : {}),
      })
    : undefined;
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
    chapterContext: new ChapterContext({ db: infra.db, translation, llm, logger: infra.logger }),
    points: pointsService,
    queue: infra.queue,
    logger: infra.logger,
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
    admin: new AdminService({ ...infra, usersRepo, invites, auth, enabledEngines: () => translation.enabledEngines() }),
    books,
    uploads,
    parseHost,
    media: new MediaService({ signer, storage: infra.storage, books, usersRepo }),
    points: pointsService,
    translation,
    reader,
    engines,
    glossary,
    glossaryExtraction: new GlossaryExtraction({ glossary, books, translation, llm, logger: infra.logger }),
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
      llm,
      logger: infra.logger,
    }),
    marks: new MarksService({ db: infra.db, books }),
    sharing: new SharingService({ db: infra.db, books, publicUrl: infra.config.publicUrl, logger: infra.logger }),
    feedback: new FeedbackService({ db: infra.db, storage: infra.storage, signer, logger: infra.logger }),
    ai: new AiService({
      db: infra.db,
      books,
      points: pointsService,
      logger: infra.logger,
      llm,
      glossaryTerms: async (bookId, language, texts) => termsInAll(texts, await glossary.entries(bookId, language)),
    }),
    limiter,
    signer,
    access,
  };
}
