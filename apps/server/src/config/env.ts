import path from 'node:path';
import { z } from 'zod';
import { engineSettingsFromEnv, type EngineSettings } from '../engines/translation/registry.ts';

/** Parses "true"/"false"/"1"/"0" (and the usual yes/no) into a boolean. */
const flag = (fallback: boolean) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return fallback;
      if (['true', '1', 'yes', 'on'].includes(value)) return true;
      if (['false', '0', 'no', 'off'].includes(value)) return false;
      ctx.addIssue({ code: 'custom', message: `expected true or false, got "${value}"` });
      return z.NEVER;
    });

const int = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).optional().default(fallback);

const optionalString = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

const optionalUrl = (protocols: string[]) =>
  optionalString.refine(
    (v) => {
      if (v === undefined) return true;
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL (${protocols.join(', ')})` },
  );

/**
 * A variable's documentation, kept in the schema: the README's configuration table is generated from
 * it (`npm run docs:config`), and a test fails when the two differ. `shownDefault` is what the table
 * says when the default is not a plain value of the schema (computed, generated, or a fallback).
 */
function doc<T extends z.ZodType>(schema: T, description: string, shownDefault?: string): T {
  return schema.meta({ description, ...(shownDefault === undefined ? {} : { shownDefault }) });
}

/** Every environment variable Yidu reads, with its default and what it does. */
export const EnvSchema = z.object({
  PORT: doc(int(3000, 1, 65535), 'HTTP port.'),
  HOST: doc(
    z.string().trim().default('0.0.0.0'),
    'Address to listen on (`127.0.0.1` to accept local connections only).',
  ),
  PUBLIC_URL: doc(
    optionalUrl(['http:', 'https:']),
    'The address users reach Yidu at; used in the links of mails. `https://…`: HSTS and upgrade-insecure-requests are sent.',
    '`http://localhost:$PORT`',
  ),
  DATA_DIR: doc(z.string().trim().default('./data'), 'Where Yidu keeps its data (see below).'),
  DATABASE_URL: doc(
    optionalUrl(['postgres:', 'postgresql:']),
    'A `postgres://` URL of an external PostgreSQL. Unset: the embedded PostgreSQL under `DATA_DIR` is used.',
  ),
  EMBEDDED_PG_PORT: doc(
    z.coerce.number().int().min(1).max(65535).optional(),
    'A fixed port for the embedded PostgreSQL (127.0.0.1 only); a start fails when it is taken. Unset: the port used last time, `54320` for a new data directory, or any free port when that one is taken (a second Yidu on the machine). Either way the port in use is kept in `DATA_DIR/postgres-port`.',
    '_(free port)_',
  ),
  APP_SECRET: doc(
    optionalString.refine((v) => v === undefined || v.length >= 32, {
      message: 'must be at least 32 characters',
    }),
    'Secret for encrypting stored settings (engine and AI model keys) and signing media URLs; at least 32 characters. Unset: generated once and kept in `DATA_DIR/app-secret`. Every process of one deployment needs the same.',
    '_(generated)_',
  ),
  LOG_LEVEL: doc(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`. Logs are JSON lines on stdout.',
  ),
  TRUST_PROXY: doc(
    flag(false),
    'Set `true` behind a reverse proxy so that client IP addresses (used by rate limits) are read from `X-Forwarded-For`, and HTTPS from `X-Forwarded-Proto`.',
    '`false`',
  ),
  WEB_DIST_DIR: doc(optionalString, 'The built web app to serve.', '`apps/web/dist`'),

  REQUIRE_INVITE: doc(flag(true), 'Registration needs an invitation code.', '`true`'),
  EMAIL_ACTIVATION: doc(
    flag(true),
    'Email registrations must open an emailed activation link before logging in. `false`: logged in at once.',
    '`true`',
  ),
  PHONE_REGISTRATION: doc(flag(true), 'Allow registration by phone with an SMS code.', '`true`'),
  ADMIN_ACCOUNT: doc(
    optionalString,
    'Create this admin at start-up if no such account exists (set `ADMIN_PASSWORD` too).',
  ),
  ADMIN_PASSWORD: doc(optionalString, 'Password of that admin.'),
  ADMIN_EMAIL: doc(optionalString, 'Email address of that admin.'),
  STARTING_POINTS: doc(int(1000, 0, 100_000_000), 'Points balance of a new account, recorded in its points history.'),
  SESSION_TTL_DAYS: doc(int(30, 1, 3650), 'Lifetime of a login session.'),
  CONTACT_EMAIL: doc(
    z.string().trim().default('support@localhost'),
    'Contact address shown to users (for example when the upload limit is reached).',
  ),

  SMTP_URL: doc(
    optionalUrl(['smtp:', 'smtps:']),
    'Send mail through this SMTP server, e.g. `smtps://user:pass@smtp.example.com:465`. Unset: mails go to `DATA_DIR/outbox/`.',
  ),
  MAIL_FROM: doc(z.string().trim().default('Yidu <no-reply@localhost>'), "Sender of Yidu's mails."),
  SMS_WEBHOOK_URL: doc(
    optionalUrl(['http:', 'https:']),
    'Send SMS by POSTing `{"to", "text"}` as JSON to this URL. Unset: texts go to `DATA_DIR/outbox/sms.log`.',
  ),
  SMS_WEBHOOK_TOKEN: doc(optionalString, 'Bearer token sent to the SMS webhook.'),

  CODE_RESEND_SECONDS: doc(int(60, 1, 3600), 'Resend countdown of verification codes and activation mails.'),
  CODE_DAILY_LIMIT: doc(int(10, 1, 1000), 'Codes one phone number or account may receive per day.'),
  CODE_TTL_MINUTES: doc(int(10, 1, 1440), 'Validity of a verification code.'),
  ACTIVATION_TTL_HOURS: doc(int(24, 1, 24 * 30), 'Validity of an activation link.'),
  LOGIN_MAX_FAILURES: doc(int(5, 1, 1000), 'Failed logins per account before it is locked for `LOGIN_LOCK_MINUTES`.'),
  LOGIN_MAX_FAILURES_PER_IP: doc(int(30, 1, 100_000), 'Failed logins per IP address before it is locked.'),
  LOGIN_LOCK_MINUTES: doc(int(15, 1, 1440), 'Window and lock time of the login limits.'),
  LOGIN_FAILURE_DELAY_MS: doc(
    int(250, 0, 10_000),
    'Each further failed login is answered this much more slowly (capped at 3 s).',
  ),
  RATE_LIMIT_PER_MINUTE: doc(
    int(600, 1, 1_000_000),
    "API requests per minute per IP address (credential calls have tighter limits; the web app's files are not counted).",
  ),
  S3_BUCKET: doc(
    optionalString,
    'Keep uploaded books, covers and images in this S3-compatible bucket instead of `DATA_DIR/files` (needed when several machines serve the app).',
  ),
  S3_REGION: doc(z.string().trim().default('us-east-1'), "The bucket's region."),
  S3_ENDPOINT: doc(
    optionalUrl(['http:', 'https:']),
    'Another S3-compatible service (MinIO, Cloudflare R2, Ceph…), e.g. `http://minio:9000`; path-style addressing is used.',
    '_(AWS)_',
  ),
  S3_ACCESS_KEY_ID: doc(
    optionalString,
    "Credentials (with `S3_SECRET_ACCESS_KEY`); without them the AWS SDK's usual sources (environment, instance role) apply.",
    '_(SDK default chain)_',
  ),
  S3_SECRET_ACCESS_KEY: doc(optionalString, 'The secret of `S3_ACCESS_KEY_ID`.', '_(SDK default chain)_'),
  METRICS_TOKEN: doc(
    optionalString.refine((v) => v === undefined || v.length >= 16, {
      message: 'must be at least 16 characters',
    }),
    'Turns on `GET /metrics` (Prometheus format) for scrapers sending `Authorization: Bearer <token>`; at least 16 characters.',
  ),

  UPLOAD_MAX_MB: doc(int(30, 1, 2048), 'Largest book file accepted, in megabytes.'),
  UPLOADS_PER_DAY: doc(
    int(20, 0, 1_000_000),
    'Book uploads one IP address may make per day (SPEC §9; each upload can be saved as one book).',
  ),
  UPLOADS_PER_MONTH: doc(int(100, 0, 10_000_000), 'Book uploads one IP address may make per calendar month.'),
  PARSE_TIMEOUT_SECONDS: doc(int(600, 10, 86_400), 'A book whose parse takes longer is stopped and its upload fails.'),
  PDF_HELPER_THREADS: doc(
    z.coerce.number().int().min(0).max(3).optional(),
    "Threads that help read a PDF's text, for files up to 10 MB (a larger file is read by one thread: a helper's copy would cost too much memory); `0` turns them off. Set it where the machine reports more cores than the container may use.",
    '_(one per further core, at most 3)_',
  ),
  STAGE_STALE_SECONDS: doc(
    int(60, 2, 3600),
    'A running upload stage silent for this long is taken to have lost its worker (killed) and is started again.',
  ),
  PARSE_MEMORY_MB: doc(
    int(640, 128, 65_536),
    'Resident memory a parse process may use; a book that needs more fails with "file too complex", is not retried, and the server is unaffected.',
  ),
  PARSE_PROCESSES: doc(int(1, 1, 16), 'Parse processes per worker: how many books are parsed at once.'),
  PDF_CROPS_IN_PARSE: doc(
    int(48, 0, 100_000),
    'Figures, tables and formulas of a PDF cropped as pictures while it is parsed (the first ones, in page order); the others are made in the background after the book is saved, and the reader shows them as they come. Lower it to have large illustrated PDFs ready sooner.',
  ),

  TRANSLATION_ENGINES: doc(
    z.string().trim().default('microsoft'),
    'Translation engines in fallback order, comma-separated: `microsoft` (keyless unless keyed), `google`, `deepl`, `llm`, `libretranslate`. Admins can change them in the browser (Admin → Engines); saved settings replace these.',
  ),
  MICROSOFT_TRANSLATOR_KEY: doc(optionalString, 'Azure Translator key (unset: the keyless endpoint).'),
  MICROSOFT_TRANSLATOR_REGION: doc(optionalString, "The Azure key's region, e.g. `eastasia`."),
  MICROSOFT_TRANSLATOR_ENDPOINT: doc(
    optionalUrl(['http:', 'https:']),
    'Another address for the Microsoft translator (a proxy or mirror).',
  ),
  GOOGLE_TRANSLATE_KEY: doc(optionalString, 'Google Cloud Translation key (unset: the keyless endpoint).'),
  GOOGLE_TRANSLATE_ENDPOINT: doc(
    optionalUrl(['http:', 'https:']),
    'Another address for Google Translate (a proxy or mirror).',
  ),
  DEEPL_API_KEY: doc(optionalString, 'DeepL API key (needed for `deepl`; keys ending in `:fx` use the free API).'),
  DEEPL_ENDPOINT: doc(optionalUrl(['http:', 'https:']), 'Another address for DeepL (a proxy or mirror).'),
  LIBRETRANSLATE_URL: doc(
    optionalUrl(['http:', 'https:']),
    'Address of a LibreTranslate server (needed for `libretranslate`).',
  ),
  LIBRETRANSLATE_API_KEY: doc(optionalString, 'API key of that LibreTranslate server, if it asks for one.'),
  LLM_BASE_URL: doc(
    optionalUrl(['http:', 'https:']),
    'OpenAI-compatible API of the default AI model (explanations, annotations, search answers, and the `llm` translation engine), e.g. `https://api.deepseek.com/v1` or `http://localhost:11434/v1`. Set with `LLM_MODEL`. Admins can set a model per use in the browser (Admin → AI models), which replaces this.',
  ),
  LLM_API_KEY: doc(optionalString, 'API key of that service (local servers need none).'),
  LLM_MODEL: doc(optionalString, 'The model, e.g. `deepseek-chat`, `qwen-plus` or `qwen3:8b`.'),
  READWISE_API_URL: doc(
    z
      .string()
      .trim()
      .default('https://readwise.io')
      .refine((v) => /^https?:\/\/[^/]/.test(v), { message: 'must be an http(s) URL' }),
    "Readwise's API, where readers' highlights and notes are pushed (its `/api/v2/highlights/`); another address for a proxy or a test server.",
  ),
  ENGINE_PROBE_MINUTES: doc(
    int(10, 0, 1440),
    "Minutes between light checks of the engines and AI models that real use has not proven lately (for the admins' set-up checklist); `0` turns them off.",
  ),
  FIRST_SHELF: doc(
    flag(true),
    'Put a first shelf of public-domain books (English and Japanese, with their licences: `apps/server/src/modules/first-shelf/books/SOURCES.md`) in the public library at start-up, once per book; admins remove them like any book. `false`: an empty library.',
    '`true`',
  ),
});

export type Env = z.infer<typeof EnvSchema>;
export type Role = 'api' | 'worker' | 'all';

export interface Config {
  role: Role;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** A fixed port for the embedded PostgreSQL; undefined: the last one used, the default, or any free one. */
  embeddedPgPort: number | undefined;
  /** Filled in by `resolveAppSecret` before the app starts. */
  appSecret: string;
  publicUrl: string;
  logLevel: Env['LOG_LEVEL'];
  trustProxy: boolean;
  webDistDir: string;
  version: string;
  accounts: {
    requireInvite: boolean;
    emailActivation: boolean;
    phoneRegistration: boolean;
    startingPoints: number;
    sessionTtlDays: number;
    admin: { account: string; password: string; email: string | undefined } | undefined;
    contactEmail: string;
  };
  mail: { smtpUrl: string | undefined; from: string };
  sms: { webhookUrl: string | undefined; webhookToken: string | undefined };
  codes: { resendSeconds: number; dailyLimit: number; ttlMinutes: number; activationTtlHours: number };
  login: { maxFailures: number; maxFailuresPerIp: number; lockMinutes: number; failureDelayMs: number };
  rateLimitPerMinute: number;
  /** Files in an S3-compatible bucket instead of DATA_DIR/files, when S3_BUCKET is set. */
  s3:
    | {
        bucket: string;
        region: string;
        endpoint: string | undefined;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
      }
    | undefined;
  /** Bearer token for GET /metrics; the endpoint is off without it. */
  metricsToken: string | undefined;
  books: {
    maxFileBytes: number;
    uploadsPerDay: number;
    uploadsPerMonth: number;
    parseTimeoutSeconds: number;
    /** Threads helping to read a PDF's text (files up to 10 MB); undefined: one per further core. */
    pdfHelperThreads: number | undefined;
    /** A running stage silent for this long is taken to have lost its worker and is started again. */
    stageStaleSeconds: number;
    /** Resident memory a parse process may use before it is stopped (fileTooComplex). */
    parseMemoryMb: number;
    /** Parse processes per worker: books parsed at once. */
    parseProcesses: number;
    /** PDF figures cropped during the parse; the rest after the book is saved (book.crops). */
    pdfCropsInParse: number;
  };
  /** Translation engines in order, from TRANSLATION_ENGINES and the engine variables. */
  translationEngines: EngineSettings[];
  /** The OpenAI-compatible chat model of the AI reading aids, when configured. */
  llm: { baseUrl: string; apiKey: string | undefined; model: string } | undefined;
  /** Minutes between light probes of the engines and AI models not proven by recent use; 0: off. */
  engineProbeMinutes: number;
  /** Seed the first shelf of public-domain books at start-up. */
  firstShelf: boolean;
  /** Readwise's API (highlights pushed there). */
  readwiseUrl: string;
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; errors: string[] };

const serverRoot = path.resolve(import.meta.dirname, '../..');

/** Validates the whole environment at once so that every problem is reported, not just the first. */
export function loadConfig(env: NodeJS.ProcessEnv, role: Role = 'all', version = '0.0.0'): ConfigResult {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.map((issue) => `${issue.path.join('.') || '(env)'}: ${issue.message}`),
    };
  }
  const e = parsed.data;
  const errors: string[] = [];
  if (Boolean(e.ADMIN_ACCOUNT) !== Boolean(e.ADMIN_PASSWORD)) {
    errors.push('ADMIN_ACCOUNT and ADMIN_PASSWORD: set both or neither');
  }
  let translationEngines: EngineSettings[] = [];
  try {
    translationEngines = engineSettingsFromEnv(env);
  } catch (error) {
    errors.push(`TRANSLATION_ENGINES: ${(error as Error).message}`);
  }
  if (Boolean(e.LLM_BASE_URL) !== Boolean(e.LLM_MODEL)) errors.push('LLM_BASE_URL and LLM_MODEL: set both or neither');
  if (errors.length > 0) return { ok: false, errors };

  return {
    ok: true,
    config: {
      role,
      port: e.PORT,
      host: e.HOST,
      dataDir: path.resolve(e.DATA_DIR),
      databaseUrl: e.DATABASE_URL,
      embeddedPgPort: e.EMBEDDED_PG_PORT,
      appSecret: e.APP_SECRET ?? '',
      publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
      logLevel: e.LOG_LEVEL,
      trustProxy: e.TRUST_PROXY,
      webDistDir: e.WEB_DIST_DIR ? path.resolve(e.WEB_DIST_DIR) : path.resolve(serverRoot, '../web/dist'),
      version,
      accounts: {
        requireInvite: e.REQUIRE_INVITE,
        emailActivation: e.EMAIL_ACTIVATION,
        phoneRegistration: e.PHONE_REGISTRATION,
        startingPoints: e.STARTING_POINTS,
        sessionTtlDays: e.SESSION_TTL_DAYS,
        admin:
          e.ADMIN_ACCOUNT && e.ADMIN_PASSWORD
            ? { account: e.ADMIN_ACCOUNT, password: e.ADMIN_PASSWORD, email: e.ADMIN_EMAIL }
            : undefined,
        contactEmail: e.CONTACT_EMAIL,
      },
      mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
      sms: { webhookUrl: e.SMS_WEBHOOK_URL, webhookToken: e.SMS_WEBHOOK_TOKEN },
      codes: {
        resendSeconds: e.CODE_RESEND_SECONDS,
        dailyLimit: e.CODE_DAILY_LIMIT,
        ttlMinutes: e.CODE_TTL_MINUTES,
        activationTtlHours: e.ACTIVATION_TTL_HOURS,
      },
      login: {
        maxFailures: e.LOGIN_MAX_FAILURES,
        maxFailuresPerIp: e.LOGIN_MAX_FAILURES_PER_IP,
        lockMinutes: e.LOGIN_LOCK_MINUTES,
        failureDelayMs: e.LOGIN_FAILURE_DELAY_MS,
      },
      rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
      metricsToken: e.METRICS_TOKEN,
      s3: e.S3_BUCKET
        ? {
            bucket: e.S3_BUCKET,
            region: e.S3_REGION,
            endpoint: e.S3_ENDPOINT,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          }
        : undefined,
      books: {
        maxFileBytes: e.UPLOAD_MAX_MB * 1024 * 1024,
        uploadsPerDay: e.UPLOADS_PER_DAY,
        uploadsPerMonth: e.UPLOADS_PER_MONTH,
        parseTimeoutSeconds: e.PARSE_TIMEOUT_SECONDS,
        pdfHelperThreads: e.PDF_HELPER_THREADS,
        stageStaleSeconds: e.STAGE_STALE_SECONDS,
        parseMemoryMb: e.PARSE_MEMORY_MB,
        parseProcesses: e.PARSE_PROCESSES,
        pdfCropsInParse: e.PDF_CROPS_IN_PARSE,
      },
      translationEngines,
      llm:
        e.LLM_BASE_URL && e.LLM_MODEL
          ? { baseUrl: e.LLM_BASE_URL, apiKey: e.LLM_API_KEY, model: e.LLM_MODEL }
          : undefined,
      engineProbeMinutes: e.ENGINE_PROBE_MINUTES,
      firstShelf: e.FIRST_SHELF,
      readwiseUrl: e.READWISE_API_URL.replace(/\/+$/, ''),
    },
  };
}
