/**
 * Which languages OCR can read here: the traineddata packages installed. Kept apart from
 * tesseract.ts so that the API process can ask without loading tesseract.js.
 */
import { traineddataPath } from './lang-data.ts';

/**
 * Reading-language code → tesseract traineddata name, for the data packages we ship. 'ja' and
 * 'zh-Hant' are accepted as aliases because detected and declared languages use ISO codes.
 */
export const TESSERACT_LANGUAGES: Record<string, string> = {
  en: 'eng',
  zh: 'chi_sim',
  'zh-TW': 'chi_tra',
  'zh-Hant': 'chi_tra',
  jp: 'jpn',
  ja: 'jpn',
};

const available = new Map<string, boolean>();

/** True when the traineddata for this reading language is installed (checked once per language). */
export function hasOcrLanguage(code: string): boolean {
  const lang = TESSERACT_LANGUAGES[code];
  if (!lang) return false;
  let ok = available.get(lang);
  if (ok === undefined) {
    ok = traineddataPath(lang) !== undefined;
    available.set(lang, ok);
  }
  return ok;
}
