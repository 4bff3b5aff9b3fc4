import type { Locale } from 'antd/es/locale';
import { READING_LANGUAGES, type LanguageName, type UiLanguage } from '@yidu/shared/languages';

/**
 * The one list of interface languages (DESIGN §7): it drives i18next, the Ant Design locale, dayjs and
 * every language picker. `label` is the language's name in itself, so anyone can find their own.
 */
export interface UiLanguageInfo {
  code: UiLanguage;
  label: string;
  /** BCP 47 tag for <html lang> and Intl. */
  bcp47: string;
  /** Reading language suggested to a new user of this interface language (an English name, SPEC §3.12). */
  readingLanguage: LanguageName;
  antd: () => Promise<Locale>;
  dayjs: () => Promise<unknown>;
  dayjsName: string;
}

export const UI_LANGUAGE_LIST: UiLanguageInfo[] = [
  {
    code: 'zh',
    label: '简体中文',
    bcp47: 'zh-CN',
    readingLanguage: 'Chinese',
    antd: () => import('antd/es/locale/zh_CN').then((m) => m.default),
    dayjs: () => import('dayjs/locale/zh-cn'),
    dayjsName: 'zh-cn',
  },
  {
    code: 'en',
    label: 'English',
    bcp47: 'en',
    readingLanguage: 'English',
    antd: () => import('antd/es/locale/en_US').then((m) => m.default),
    dayjs: () => Promise.resolve(),
    dayjsName: 'en',
  },
  {
    code: 'de',
    label: 'Deutsch',
    bcp47: 'de',
    readingLanguage: 'German',
    antd: () => import('antd/es/locale/de_DE').then((m) => m.default),
    dayjs: () => import('dayjs/locale/de'),
    dayjsName: 'de',
  },
  {
    code: 'es',
    label: 'Español',
    bcp47: 'es',
    readingLanguage: 'Spanish',
    antd: () => import('antd/es/locale/es_ES').then((m) => m.default),
    dayjs: () => import('dayjs/locale/es'),
    dayjsName: 'es',
  },
  {
    code: 'fr',
    label: 'Français',
    bcp47: 'fr',
    readingLanguage: 'French',
    antd: () => import('antd/es/locale/fr_FR').then((m) => m.default),
    dayjs: () => import('dayjs/locale/fr'),
    dayjsName: 'fr',
  },
  {
    code: 'jp',
    label: '日本語',
    bcp47: 'ja',
    readingLanguage: 'Japanese',
    antd: () => import('antd/es/locale/ja_JP').then((m) => m.default),
    dayjs: () => import('dayjs/locale/ja'),
    dayjsName: 'ja',
  },
  {
    code: 'ko',
    label: '한국어',
    bcp47: 'ko',
    readingLanguage: 'Korean',
    antd: () => import('antd/es/locale/ko_KR').then((m) => m.default),
    dayjs: () => import('dayjs/locale/ko'),
    dayjsName: 'ko',
  },
];

export function uiLanguageInfo(code: string): UiLanguageInfo {
  return UI_LANGUAGE_LIST.find((l) => l.code === code) ?? UI_LANGUAGE_LIST[0]!;
}

/** Maps a browser language tag (navigator.language) to one of the 7 interface languages, if any. */
export function matchUiLanguage(tag: string | undefined): UiLanguage | undefined {
  if (!tag) return undefined;
  const base = tag.toLowerCase().split(/[-_]/)[0];
  if (base === 'ja' || base === 'jp') return 'jp';
  return UI_LANGUAGE_LIST.find((l) => l.code === base)?.code;
}

/** BCP 47 tags for Intl.DisplayNames where a reading-language code is not one. */
const READING_BCP47: Record<string, string> = { zh: 'zh-Hans', 'zh-TW': 'zh-Hant', jp: 'ja' };

export interface ReadingLanguageOption {
  /** English name: the value the API takes. */
  value: LanguageName;
  code: string;
  /** Name in the interface language. */
  label: string;
  /** Name in the language itself. */
  native: string;
}

/** The 26 reading languages named in the given interface language (falls back to the English name). */
/**
 * A language outside the 26 that a book was detected in ('he', 'la'), named in the interface language
 * by Intl; undefined when Intl does not know the code.
 */
export function otherLanguageName(uiLanguage: string, code: string): string | undefined {
  try {
    const names = new Intl.DisplayNames([uiLanguageInfo(uiLanguage).bcp47], { type: 'language', fallback: 'none' });
    return names.of(code) || undefined;
  } catch {
    return undefined;
  }
}

export function readingLanguageOptions(uiLanguage: string): ReadingLanguageOption[] {
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames([uiLanguageInfo(uiLanguage).bcp47], { type: 'language', fallback: 'none' });
  } catch {
    names = undefined;
  }
  return READING_LANGUAGES.map((l) => {
    const localized = names?.of(READING_BCP47[l.code] ?? l.code);
    return { value: l.name, code: l.code, label: localized || l.name, native: l.native };
  });
}
