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
 * Every environment variable Yidu reads, with its default. The README's configuration table is
 * written from this schema: keep them in step.
 */
export const EnvSchema = z.object({
  PORT: int(3000, 1, 65535),
  HOST: z.string().trim().default('0.0.0.0'),
  DATA_DIR: z.string().trim().default('./data'),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  APP_SECRET: optionalString.refine((v) => v === undefined || v.length >= 32, {
    message: 'must be at least 32 characters',
  }),
  PUBLIC_URL: optionalUrl(['http:', 'https:']),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: flag(false),
  WEB_DIST_DIR: optionalString,

  REQUIRE_INVITE: flag(true),
  EMAIL_ACTIVATION: flag(true),
  PHONE_REGISTRATION: flag(true),
  ADMIN_ACCOUNT: optionalString,
  ADMIN_PASSWORD: optionalString,
  ADMIN_EMAIL: optionalString,
  STARTING_POINTS: int(1000, 0, 100_000_000),
  SESSION_TTL_DAYS: int(30, 1, 3650),
  CONTACT_EMAIL: z.string().trim().default('support@localhost'),

  SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
  MAIL_FROM: z.string().trim().default('Yidu <no-reply@localhost>'),
  SMS_WEBHOOK_URL: optionalUrl(['http:', 'https:']),
  SMS_WEBHOOK_TOKEN: optionalString,

  CODE_RESEND_SECONDS: int(60, 1, 3600),
  CODE_DAILY_LIMIT: int(10, 1, 1000),
  CODE_TTL_MINUTES: int(10, 1, 1440),
  ACTIVATION_TTL_HOURS: int(24, 1, 24 * 30),
  LOGIN_MAX_FAILURES: int(5, 1, 1000),
  LOGIN_MAX_FAILURES_PER_IP: int(30, 1, 100_000),
  LOGIN_LOCK_MINUTES: int(15, 1, 1440),
  LOGIN_FAILURE_DELAY_MS: int(250, 0, 10_000),
  RATE_LIMIT_PER_MINUTE: int(600, 1, 1_000_000),
  S3_BUCKET: optionalString,
  S3_REGION: z.string().trim().default('us-east-1'),
  S3_ENDPOINT: optionalUrl(['http:', 'https:']),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  METRICS_TOKEN: optionalString.refine((v) => v === undefined || v.length >= 16, {
    message: 'must be at least 16 characters',
  }),

  UPLOAD_MAX_MB: int(30, 1, 2048),
  UPLOADS_PER_DAY: int(20, 0, 1_000_000),
  UPLOADS_PER_MONTH: int(100, 0, 10_000_000),
  PARSE_TIMEOUT_SECONDS: int(600, 10, 86_400),
  PDF_HELPER_THREADS: z.coerce.number().int().min(0).max(3).optional(),
  STAGE_STALE_SECONDS: int(60, 2, 3600),
  PARSE_MEMORY_MB: int(768, 128, 65_536),
  PARSE_PROCESSES: int(1, 1, 16),

  TRANSLATION_ENGINES: z.string().trim().default('microsoft'),
  MICROSOFT_TRANSLATOR_KEY: optionalString,
  MICROSOFT_TRANSLATOR_REGION: optionalString,
  MICROSOFT_TRANSLATOR_ENDPOINT: optionalUrl(['http:', 'https:']),
  GOOGLE_TRANSLATE_KEY: optionalString,
  GOOGLE_TRANSLATE_ENDPOINT: optionalUrl(['http:', 'https:']),
  DEEPL_API_KEY: optionalString,
  DEEPL_ENDPOINT: optionalUrl(['http:', 'https:']),
  LIBRETRANSLATE_URL: optionalUrl(['http:', 'https:']),
  LIBRETRANSLATE_API_KEY: optionalString,
  LLM_BASE_URL: optionalUrl(['http:', 'https:']),
  LLM_API_KEY: optionalString,
  LLM_MODEL: optionalString,
  ENGINE_PROBE_MINUTES: int(10, 0, 1440),
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
  };
  /** Translation engines in order, from TRANSLATION_ENGINES and the engine variables. */
  translationEngines: EngineSettings[];
  /** The OpenAI-compatible chat model of the AI reading aids, when configured. */
  llm: { baseUrl: string; apiKey: string | undefined; model: string } | undefined;
  /** Minutes between light probes of the engines and AI models not proven by recent use; 0: off. */
  engineProbeMinutes: number;
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
      },
      translationEngines,
      llm:
        e.LLM_BASE_URL && e.LLM_MODEL
          ? { baseUrl: e.LLM_BASE_URL, apiKey: e.LLM_API_KEY, model: e.LLM_MODEL }
          : undefined,
      engineProbeMinutes: e.ENGINE_PROBE_MINUTES,
    },
  };
}
