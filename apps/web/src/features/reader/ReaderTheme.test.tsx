import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { theme } from 'antd';
import { DEFAULT_READER_SETTINGS, useReaderSettings, type ColorScheme } from '../../stores/readerSettings.ts';
import { ReaderTheme } from './ReaderTheme.tsx';

/** Shows the colours Ant Design gives what opens in this context (drawers, popovers, dialogs). */
function Probe() {
  const { token } = theme.useToken();
  return <output data-testid="probe">{`${token.colorBgElevated} ${token.colorBgLayout}`}</output>;
}

const lightness = (hex: string) => {
  const n = Number.parseInt(hex.slice(1, 7), 16);
  return (0.299 * ((n >> 16) & 255) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255)) / 255;
};

function shown(scheme: ColorScheme, reading: boolean) {
  useReaderSettings.setState({ settings: { ...DEFAULT_READER_SETTINGS, scheme } });
  const view = render(
    <ReaderTheme reading={reading}>
      <Probe />
    </ReaderTheme>,
  );
  const [elevated, layout] = screen.getByTestId('probe').textContent!.split(' ');
  const dark = document.body.classList.contains('yd-reader-dark');
  view.unmount();
  return { elevated: lightness(elevated!), layout: layout!, dark };
}

afterEach(() => useReaderSettings.setState({ settings: DEFAULT_READER_SETTINGS }));

describe('the reader theme', () => {
  it('turns what opens over a book dark in a dark scheme, in its own colours', () => {
    useReaderSettings.setState({ settings: { ...DEFAULT_READER_SETTINGS, scheme: 'black' } });
    const view = render(
      <ReaderTheme reading>
        <Probe />
      </ReaderTheme>,
    );
    const [elevated, layout] = screen.getByTestId('probe').textContent!.split(' ');
    expect(lightness(elevated!)).toBeLessThan(0.3);
    expect(layout).toBe('#121212');
    expect(document.body.classList.contains('yd-reader-dark')).toBe(true);
    expect(document.body.style.getPropertyValue('--rd-fg')).toBe('#cfcac2');
    view.unmount();
    expect(document.body.classList.contains('yd-reader-dark')).toBe(false);
  });

  it('leaves the light schemes and the New Tab in the app colours', () => {
    expect(shown('paper', true).elevated).toBeGreaterThan(0.9);
    expect(shown('black', false)).toMatchObject({ dark: false });
    expect(shown('black', false).elevated).toBeGreaterThan(0.9);
  });
});
