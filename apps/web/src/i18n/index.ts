import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import { DEFAULT_UI_LANGUAGE, FALLBACK_UI_LANGUAGE, isUiLanguage, type UiLanguage } from '@yidu/shared/languages';
import { create } from 'zustand';
import type { Locale } from 'antd/es/locale';
import en from './locales/en.json';
import zh from './locales/zh.json';
import { matchUiLanguage, uiLanguageInfo } from './languages.ts';

export const UI_LANGUAGE_STORAGE_KEY = 'uiLanguage';

/** zh (default) and en (fallback) ship in the main bundle; the other five load when chosen. */
const loaders: Record<UiLanguage, () => Promise<{ default: Record<string, unknown> }>> = {
  zh: () => Promise.resolve({ default: zh }),
  en: () => Promise.resolve({ default: en }),
  de: () => import('./locales/de.json'),
  es: () => import('./locales/es.json'),
  fr: () => import('./locales/fr.json'),
  jp: () => import('./locales/jp.json'),
  ko: () => import('./locales/ko.json'),
};

/** The language of the interface and the matching Ant Design locale, for the providers. */
export const useUiLanguage = create<{ language: UiLanguage; antdLocale: Locale | undefined }>(() => ({
  language: DEFAULT_UI_LANGUAGE,
  antdLocale: undefined,
}));

/** The stored choice, else the browser's language if it is one of the 7, else zh. */
export function initialUiLanguage(): UiLanguage {
  const stored = safeGet(UI_LANGUAGE_STORAGE_KEY);
  if (stored && isUiLanguage(stored)) return stored;
  const languages = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  for (const tag of languages) {
    const match = matchUiLanguage(tag);
    if (match) return match;
  }
  return DEFAULT_UI_LANGUAGE;
}

i18n.use(initReactI18next).init({
  resources: { zh: { translation: zh }, en: { translation: en } },
  lng: DEFAULT_UI_LANGUAGE,
  fallbackLng: FALLBACK_UI_LANGUAGE,
  supportedLngs: ['zh', 'en', 'de', 'es', 'fr', 'jp', 'ko'],
  partialBundledLanguages: true,
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

/** Switches the interface language: messages, Ant Design locale, dayjs locale, <html lang>, stored choice. */
export async function changeUiLanguage(language: UiLanguage, { persist = true } = {}): Promise<void> {
  const info = uiLanguageInfo(language);
  const [messages, antdLocale] = await Promise.all([loaders[language](), info.antd(), info.dayjs()]);
  if (!i18n.hasResourceBundle(language, 'translation')) {
    i18n.addResourceBundle(language, 'translation', messages.default, true, true);
  }
  await i18n.changeLanguage(language);
  dayjs.locale(info.dayjsName);
  if (typeof document !== 'undefined') document.documentElement.lang = info.bcp47;
  if (persist) safeSet(UI_LANGUAGE_STORAGE_KEY, language);
  useUiLanguage.setState({ language, antdLocale });
}

/** Called once before the first render. */
export function initI18n(): Promise<void> {
  return changeUiLanguage(initialUiLanguage(), { persist: false });
}

function safeGet(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function safeSet(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage may be unavailable (private mode); the choice then lasts for this visit.
  }
}

export default i18n;
