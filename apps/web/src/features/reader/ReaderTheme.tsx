import { useEffect, useMemo, type ReactNode } from 'react';
import { App as AntApp, ConfigProvider, theme, type ThemeConfig } from 'antd';
import { schemeColors, useReaderSettings } from '../../stores/readerSettings.ts';

/** Marks the page while a dark reading scheme is on, for what Ant Design draws outside the reader (portals). */
export const READER_DARK_CLASS = 'yd-reader-dark';

/**
 * The reader's colour scheme beyond its page: with a dark scheme (black, gray, a dark custom pair) the
 * tab bar, drawers, popovers, dialogs and messages of the reader shell turn dark too, in the scheme's
 * own colours. `reading`: a book is on screen (the New Tab keeps the app's colours).
 *
 * Always the same elements whatever the scheme, so that switching it never remounts the reader.
 */
export function ReaderTheme({ reading, children }: { reading: boolean; children: ReactNode }) {
  const settings = useReaderSettings((s) => s.settings);
  const colors = schemeColors(settings);
  const dark = reading && colors.dark;
  const { background, text } = colors;

  const config = useMemo<ThemeConfig>(
    () =>
      dark
        ? {
            algorithm: theme.darkAlgorithm,
            // The app's theme sets a light layout colour of its own: the scheme's replaces it here.
            token: {
              colorBgBase: background,
              colorBgLayout: background,
              colorTextBase: text,
              colorPrimary: '#c96a42',
              colorLink: '#d98a66',
            },
            components: {
              // The dark algorithm's rails nearly vanish on a black page.
              Slider: {
                railBg: 'rgba(255, 255, 255, 0.16)',
                railHoverBg: 'rgba(255, 255, 255, 0.26)',
                trackBg: '#c96a42',
                trackHoverBg: '#d98a66',
              },
            },
          }
        : {},
    [dark, background, text],
  );

  useEffect(() => {
    const body = document.body;
    body.classList.toggle(READER_DARK_CLASS, dark);
    if (dark) {
      body.style.setProperty('--rd-bg', background);
      body.style.setProperty('--rd-fg', text);
    }
    return () => {
      body.classList.remove(READER_DARK_CLASS);
      body.style.removeProperty('--rd-bg');
      body.style.removeProperty('--rd-fg');
    };
  }, [dark, background, text]);

  return (
    <ConfigProvider theme={config}>
      <AntApp component={false}>{children}</AntApp>
    </ConfigProvider>
  );
}
