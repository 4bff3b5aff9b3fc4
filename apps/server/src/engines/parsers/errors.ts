/**
 * Why a file could not be turned into a book. `key` is stable and is what the API sends to clients
 * (DESIGN §4 error keys); `message` is for logs.
 */
export type ParseErrorKey =
  | 'unsupportedFileType'
  | 'fileCorrupted'
  | 'fileEncrypted'
  | 'emptyFile'
  | 'fileTooComplex'
  | 'formatTooOld'
  | 'textNotExtractable'
  | 'fileDrmProtected'
  | 'fileRightsProtected'
  | 'ocrUnavailable'
  | 'noTextFound'
  | 'aborted';

export class ParseError extends Error {
  readonly key: ParseErrorKey;

  constructor(key: ParseErrorKey, message?: string, options?: { cause?: unknown }) {
    super(message ?? key, options);
    this.name = 'ParseError';
    this.key = key;
  }
}

export function isParseError(error: unknown): error is ParseError {
  return error instanceof ParseError;
}

/** Throws ParseError('aborted') when the caller cancelled; called between expensive steps. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ParseError('aborted', 'Parsing was cancelled');
}
