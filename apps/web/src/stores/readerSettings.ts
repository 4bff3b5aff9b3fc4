import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { ReaderSettings } from '@yidu/shared/marks';

export type ReaderMode = ReaderSettings['mode'];
export type ColorScheme = ReaderSettings['scheme'];
export const READER_MODES: ReaderMode[] = ['simple', 'default', 'advanced'];
export const COLOR_SCHEMES: ColorScheme[] = ['paper', 'white', 'lightGray', 'gray', 'black', 'custom'];

/** The server's defaults (SPEC §3.10; paper by default). */
export const DEFAULT_READER_SETTINGS: ReaderSettings = {
  mode: 'default',
  fontSize: 18,
  lineHeight: 1.8,
  paragraphMargin: 16,
  scheme: 'paper',
  background: '#f8f3e8',
  textColor: '#2b2622',
};

/** Page and ink colours of the preset schemes; custom uses the user's pair. */
export const SCHEME_COLORS: Record<Exclude<ColorScheme, 'custom'>, { background: string; text: string }> = {
  white: { background: '#ffffff', text: '#1f1f1f' },
  lightGray: { background: '#f1f1ef', text: '#262626' },
  paper: { background: '#f8f3e8', text: '#2b2622' },
  gray: { background: '#4a4a4c', text: '#e6e3dd' },
  black: { background: '#121212', text: '#cfcac2' },
};

export function schemeColors(settings: ReaderSettings): { background: string; text: string; dark: boolean } {
  const colors =
    settings.scheme === 'custom'
      ? { background: settings.background, text: settings.textColor }
      : SCHEME_COLORS[settings.scheme];
  return { ...colors, dark: luminance(colors.background) < 0.35 };
}

function luminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  if (Number.isNaN(n)) return 1;
  return (0.299 * ((n >> 16) & 255) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255)) / 255;
}

interface ReaderSettingsState {
  settings: ReaderSettings;
  /** The server's copy has been read this session. */
  loaded: boolean;
  update: (patch: Partial<ReaderSettings>) => void;
  replace: (settings: ReaderSettings) => void;
}

/** Reader settings, applied at once; kept locally and saved per user on the server. */
export const useReaderSettings = create<ReaderSettingsState>()(
  persist(
    (set) => ({
      settings: DEFAULT_READER_SETTINGS,
      loaded: false,
      update: (patch) => set((s) => ({ settings: { ...s.settings, ...patch } })),
      replace: (settings) => set({ settings: { ...DEFAULT_READER_SETTINGS, ...settings }, loaded: true }),
    }),
    { name: 'readerSettings', version: 1, partialize: (s) => ({ settings: s.settings }) },
  ),
);
