import pino from 'pino';

export type Logger = pino.Logger;

/** Structured JSON logs; credentials and tokens are redacted wherever they appear. */
export function createLogger(level: string, name = 'yidu'): Logger {
  return pino({
    name,
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.password',
        '*.oldPassword',
        '*.token',
        '*.code',
        '*.apiKey',
      ],
      censor: '[redacted]',
    },
  });
}
