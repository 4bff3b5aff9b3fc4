import { describe, expect, it } from 'vitest';
import { checkBookFile, isCoverFile, titleFromFileName } from './fileRules.ts';

describe('book file rules (SPEC §5.4)', () => {
  it('accepts the five formats, in any case', () => {
    for (const name of ['a.pdf', 'b.TXT', 'c.docx', 'd.doc', 'e.Epub'])
      expect(checkBookFile({ name, size: 10 }, 20)).toBeNull();
  });

  it('refuses other types, empty files and files over the limit', () => {
    expect(checkBookFile({ name: 'cover.png', size: 10 }, 20)).toBe('unsupportedFileType');
    expect(checkBookFile({ name: 'book', size: 10 }, 20)).toBe('unsupportedFileType');
    expect(checkBookFile({ name: 'empty.txt', size: 0 }, 20)).toBe('emptyFile');
    expect(checkBookFile({ name: 'big.pdf', size: 20 * 1024 * 1024 }, 20)).toBeNull();
    expect(checkBookFile({ name: 'big.pdf', size: 20 * 1024 * 1024 + 1 }, 20)).toBe('fileTooLarge');
  });

  it('suggests the file name without its extension as the title', () => {
    expect(titleFromFileName('Moby_Dick.epub')).toBe('Moby Dick');
    expect(titleFromFileName('红楼梦.txt')).toBe('红楼梦');
    expect(titleFromFileName('a.b.pdf')).toBe('a.b');
  });
});

describe('cover rules (SPEC §5.5)', () => {
  it('takes JPG, JPEG and PNG only', () => {
    expect(isCoverFile({ name: 'a.jpg', type: 'image/jpeg' })).toBe(true);
    expect(isCoverFile({ name: 'a.JPEG', type: 'image/jpeg' })).toBe(true);
    expect(isCoverFile({ name: 'a.png', type: 'image/png' })).toBe(true);
    expect(isCoverFile({ name: 'a.png', type: '' })).toBe(true);
    expect(isCoverFile({ name: 'a.gif', type: 'image/gif' })).toBe(false);
    expect(isCoverFile({ name: 'a.webp', type: 'image/webp' })).toBe(false);
    expect(isCoverFile({ name: 'a.png', type: 'image/svg+xml' })).toBe(false);
  });
});
