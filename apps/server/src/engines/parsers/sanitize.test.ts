import { describe, expect, it } from 'vitest';
import { BookBuilder } from './builder.ts';
import { sanitizeText } from './sanitize.ts';

describe('sanitizeText', () => {
  it('leaves clean text alone, tabs, line feeds, pairs and all', () => {
    const clean = 'Ein Satz\tmit Tab\nund 😀 Emoji, 中文, עברית, e\u0301';
    expect(sanitizeText(clean)).toBe(clean);
  });

  it('drops NUL, C0 and C1 controls, lone surrogates, BOMs and non-characters', () => {
    expect(sanitizeText('a\0b\x01c\x12d\x1fe\x7ff\x80g\x9fh')).toBe('abcdefgh');
    expect(sanitizeText('\ufeffstart\ufeff mid')).toBe('start mid');
    expect(sanitizeText('x\ud800y\udc00z')).toBe('xyz');
    expect(sanitizeText('lone at end \ud83d')).toBe('lone at end ');
    expect(sanitizeText('pair \ud83d\ude00 kept\ufffe\uffff')).toBe('pair 😀 kept');
  });

  it('turns CR, CRLF, VT, FF and NEL into line feeds', () => {
    expect(sanitizeText('a\r\nb\rc\x0bd\x0ce\x85f')).toBe('a\nb\nc\nd\ne\nf');
  });

  it('keeps the placeholders it is told to keep', () => {
    expect(sanitizeText('<a href="#\u0001n1\u0001">1</a>\0', '\u0001')).toBe('<a href="#\u0001n1\u0001">1</a>');
  });

  it('is what every parser book goes through: blocks, html, titles and metadata', () => {
    const book = new BookBuilder();
    book.metadata = { title: 'Ti\0tle', author: '\ufeffAuthor' };
    book.startChapter('Chap\x13ter');
    book.add({ type: 'paragraph', text: 'law\0the\x14', html: '<em>law\0</em>the' });
    book.add({ type: 'paragraph', text: '\0\x01' }); // nothing left: dropped
    const parsed = book.finish('txt', performance.now());
    expect(parsed.metadata).toEqual({ title: 'Title', author: 'Author' });
    expect(parsed.chapters[0]!.title).toBe('Chapter');
    expect(parsed.chapters[0]!.blocks).toEqual([
      { id: 'c1-b1', type: 'paragraph', text: 'lawthe', html: '<em>law</em>the' },
    ]);
  });
});
