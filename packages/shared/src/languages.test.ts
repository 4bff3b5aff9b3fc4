import { describe, expect, it } from 'vitest';
import { englishLanguageName } from './languages.ts';

describe('englishLanguageName', () => {
  it('names reading languages by their own names and others as Intl does', () => {
    expect(englishLanguageName('jp')).toBe('Japanese');
    expect(englishLanguageName('zh-TW')).toBe('Traditional Chinese');
    expect(englishLanguageName('he')).toBe('Hebrew');
    expect(englishLanguageName('la')).toBe('Latin');
    for (const unknown of ['und', 'qqq', '', 'not a code'])
      expect(englishLanguageName(unknown), unknown).toBeUndefined();
  });
});
