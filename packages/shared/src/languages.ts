/**
 * The 26 reading languages of SPEC §3.12. `name` is what the API accepts and stores
 * (`/user/changeLanguage` sends the English name); `code` is what routes and engines use.
 */
export const READING_LANGUAGES = [
  { code: 'en', name: 'English', native: 'English' },
  { code: 'zh', name: 'Chinese', native: '简体中文' },
  { code: 'zh-TW', name: 'Traditional Chinese', native: '繁體中文' },
  { code: 'hi', name: 'Hindi', native: 'हिन्दी' },
  { code: 'es', name: 'Spanish', native: 'Español' },
  { code: 'ar', name: 'Arabic', native: 'العربية' },
  { code: 'fr', name: 'French', native: 'Français' },
  { code: 'bn', name: 'Bengali', native: 'বাংলা' },
  { code: 'ru', name: 'Russian', native: 'Русский' },
  { code: 'pt', name: 'Portuguese', native: 'Português' },
  { code: 'id', name: 'Indonesian', native: 'Bahasa Indonesia' },
  { code: 'ur', name: 'Urdu', native: 'اردو' },
  { code: 'de', name: 'German', native: 'Deutsch' },
  { code: 'jp', name: 'Japanese', native: '日本語' },
  { code: 'pa', name: 'Punjabi', native: 'ਪੰਜਾਬੀ' },
  { code: 'vi', name: 'Vietnamese', native: 'Tiếng Việt' },
  { code: 'mr', name: 'Marathi', native: 'मराठी' },
  { code: 'jv', name: 'Javanese', native: 'Basa Jawa' },
  { code: 'ko', name: 'Korean', native: '한국어' },
  { code: 'fa', name: 'Persian', native: 'فارسی' },
  { code: 'tr', name: 'Turkish', native: 'Türkçe' },
  { code: 'ta', name: 'Tamil', native: 'தமிழ்' },
  { code: 'sw', name: 'Swahili', native: 'Kiswahili' },
  { code: 'it', name: 'Italian', native: 'Italiano' },
  { code: 'nl', name: 'Dutch', native: 'Nederlands' },
  { code: 'da', name: 'Danish', native: 'Dansk' },
] as const;

export type ReadingLanguage = (typeof READING_LANGUAGES)[number];
export type LanguageCode = ReadingLanguage['code'];
export type LanguageName = ReadingLanguage['name'];

export const DEFAULT_LANGUAGE_NAME: LanguageName = 'Chinese';

export const LANGUAGE_CODES = READING_LANGUAGES.map((l) => l.code) as [LanguageCode, ...LanguageCode[]];
export const LANGUAGE_NAMES = READING_LANGUAGES.map((l) => l.name) as [LanguageName, ...LanguageName[]];

/** Finds a reading language by its English name or its code (case-insensitive). */
export function findLanguage(nameOrCode: string): ReadingLanguage | undefined {
  const wanted = nameOrCode.trim().toLowerCase();
  return READING_LANGUAGES.find((l) => l.name.toLowerCase() === wanted || l.code.toLowerCase() === wanted);
}

/** The 7 interface languages (SPEC §9), default zh, fallback en. */
export const UI_LANGUAGES = ['zh', 'en', 'de', 'es', 'fr', 'jp', 'ko'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];
export const DEFAULT_UI_LANGUAGE: UiLanguage = 'zh';
export const FALLBACK_UI_LANGUAGE: UiLanguage = 'en';

export function isUiLanguage(value: string): value is UiLanguage {
  return (UI_LANGUAGES as readonly string[]).includes(value);
}

/**
 * A language's English name, for prompts and logs: a reading language's own name, else what Intl
 * knows of the ISO 639-1 code a book was detected in ('he' → 'Hebrew'); undefined for 'und' and codes
 * Intl does not know.
 */
export function englishLanguageName(code: string): string | undefined {
  const reading = findLanguage(code);
  if (reading) return reading.name;
  if (!/^[a-z]{2,3}$/.test(code) || code === 'und') return undefined;
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(code);
    return name && name !== code ? name : undefined;
  } catch {
    return undefined;
  }
}
