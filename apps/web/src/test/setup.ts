import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// findBy* waits up to 5 s (1 s by default): a page's first render loads its lazy chunk and Ant Design,
// which on a busy 2-core machine alone can take more than a second. Passing tests are no slower.
configure({ asyncUtilTimeout: 5000 });

// Tests read English messages.
localStorage.setItem('uiLanguage', 'en');

// jsdom lacks these browser APIs that Ant Design uses.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: vi.fn(),
      removeListener: vi.fn(),
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      dispatchEvent: vi.fn(),
    }),
  });
}
if (!('ResizeObserver' in window)) {
  class ResizeObserver {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserver });
}
// antd measures scrollbars with getComputedStyle on pseudo-elements, which jsdom does not implement.
const originalGetComputedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element, pseudo?: string | null) =>
  originalGetComputedStyle(element, pseudo ? undefined : pseudo);

const { changeUiLanguage } = await import('../i18n/index.ts');
await changeUiLanguage('en', { persist: false });

afterEach(() => {
  cleanup();
});
