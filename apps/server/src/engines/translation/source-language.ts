import { findLanguage, type LanguageCode } from '@yidu/shared';

/**
 * The source language of a translation as an engine's code. A book's language is one of the 26
 * reading languages or, when it was detected outside them, another ISO 639-1 code ('he', 'la').
 *
 * - 'auto' and codes the engine is not known to translate from: 'auto', the engine detects the
 *   source itself (every engine can). Sending a code a service does not know fails the request.
 * - A reading language the engine has no code for: undefined, the engine cannot take this pair
 *   (the chain moves on to an engine that can).
 */
export function sourceCode(
  from: string,
  readingLanguages: Partial<Record<LanguageCode, string>>,
  others: Readonly<Record<string, string>> = {},
): string | undefined {
  if (from === 'auto') return 'auto';
  const reading = findLanguage(from);
  if (reading && reading.code === from) return readingLanguages[reading.code];
  return others[from] ?? 'auto';
}

/** A list of ISO 639-1 codes a service uses as they are. */
export function sameCodes(codes: string): Record<string, string> {
  return Object.fromEntries(codes.split(' ').map((code) => [code, code]));
}

/** Whether a code is a reading language, which an engine either supports or not. */
export const isReadingLanguage = (code: string): code is LanguageCode => findLanguage(code)?.code === code;
