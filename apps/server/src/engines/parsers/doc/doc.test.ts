import { describe, expect, it } from 'vitest';
import { bookText } from '../builder.ts';
import { compoundFile, word6Stream, word97Streams } from './doc-fixture.ts';
import type { Word6Spec } from './doc-fixture.ts';
import { docParser } from './doc.ts';
import { ParseError } from '../errors.ts';
import { parseBook } from '../registry.ts';
import type { ParsedBook } from '../types.ts';

const word6 = (spec: Word6Spec) => compoundFile({ WordDocument: word6Stream(spec) });

async function refusal(input: Buffer): Promise<ParseError> {
  const error = await parseBook(input).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ParseError);
  return error as ParseError;
}

const blocks = (book: ParsedBook) => book.chapters.flatMap((c) => c.blocks);

describe('Word 6 and Word 95', () => {
  it('reads 8-bit text in the code page of each run’s font, whatever the language id says', async () => {
    const book = await docParser.parse(
      word6({
        main: 'Установка программы\rЗапуск установки Word\rPlain English.\r',
        codePage: 'windows-1251',
        lid: 0x409,
        fonts: [
          { name: 'Times New Roman', charset: 0 },
          // Windows 3.1 Cyrillic fonts said "ANSI": their name tells.
          { name: 'Times New Roman Cyr', charset: 0 },
          { name: 'Arial', charset: 204 },
        ],
        fontRuns: [
          { from: 0, to: 20, font: 1 },
          { from: 20, to: 41, font: 2 },
          { from: 41, to: 56, font: 0 },
        ],
      }),
    );
    expect(blocks(book).map((b) => b.text)).toEqual(['Установка программы', 'Запуск установки Word', 'Plain English.']);
  });

  it('reads text that names no font in the code page of the Normal style’s font', async () => {
    const book = await docParser.parse(
      word6({
        main: 'Съешь же ещё этих мягких французских булок.\r',
        codePage: 'windows-1251',
        lid: 0x409,
        fonts: [
          { name: 'Times New Roman', charset: 0 },
          { name: 'Arial Cyr', charset: 0 },
        ],
        normalStyle: { font: 1 },
      }),
    );
    expect(bookText(book)).toBe('Съешь же ещё этих мягких французских булок.');
  });

  it('falls back on the document’s language for runs that name no font', async () => {
    const book = await docParser.parse(word6({ main: 'Привет, мир.\r', codePage: 'windows-1251', lid: 0x419 }));
    expect(bookText(book)).toBe('Привет, мир.');
  });

  it('follows the piece table of a fast-saved file, not the order of the stream', async () => {
    const main = 'The first half of the text comes first.\rThe second half follows it.\r';
    const book = await docParser.parse(word6({ main, fastSaved: true }));
    expect(bookText(book)).toBe(main.trim().replace('\r', '\n'));
  });

  it('keeps field results, never their instructions, nested fields included', async () => {
    const main =
      'Date: \u0013DATE \\@ "dd/MM/yy"\u001412/12/97\u0015 and ' +
      '\u0013REF \u0013 QUOTE x \u0014inner\u0015 \\h\u0014the result\u0015, ' +
      '\u0013PAGE\u0015end.\r';
    const book = await docParser.parse(word6({ main }));
    expect(bookText(book)).toBe('Date: 12/12/97 and the result, end.');
  });

  it('links footnotes to their references and puts them after the text that cites them', async () => {
    const book = await docParser.parse(
      word6({ main: 'One\u0002 two.\rThree\u0002.\r', footnotes: ['First note.', 'Second note.'], fastSaved: true }),
    );
    const all = blocks(book);
    expect(all.map((b) => [b.type, b.text])).toEqual([
      ['paragraph', 'One[1] two.'],
      ['paragraph', 'Three[2].'],
      ['footnote', 'First note.'],
      ['footnote', 'Second note.'],
    ]);
    expect(all[0]!.noteRefs).toEqual([all[2]!.id]);
    expect(all[0]!.html).toBe(`One<sup><a href="#${all[2]!.id}">[1]</a></sup> two.`);
    expect(all[3]).toMatchObject({ noteLabel: '2', referencedBy: [all[1]!.id] });
  });

  it('reads Word 95 Far East files, whose text is UTF-16', async () => {
    const stream = word6Stream({ main: 'Facsimile 傳真\r', nFib: 104, flags: 0x1000 });
    // The fixture writes 8-bit text: rewrite it as UTF-16 the way fExtChar files hold it.
    const text = Buffer.from('Facsimile 傳真\r', 'utf16le');
    const wide = Buffer.concat([stream.subarray(0, 0x300), text]);
    wide.writeUInt32LE(0x300 + text.length, 0x1c);
    expect(bookText(await docParser.parse(compoundFile({ WordDocument: wide })))).toBe('Facsimile 傳真');
  });
});

describe('Word 97-2003', () => {
  it('reads UTF-16 and compressed pieces in piece-table order, with fields and linked notes', async () => {
    for (const compressed of [false, true]) {
      const main = 'Caf\u00e9 \u0013HYPERLINK "http://x"\u0014link text\u0015 here\u0002.\rNext paragraph.\r';
      const book = await docParser.parse(
        compoundFile(word97Streams({ main, footnotes: ['A note.'], fastSaved: true, compressed })),
      );
      expect(blocks(book).map((b) => [b.type, b.text])).toEqual([
        ['paragraph', 'Café link text here[1].'],
        ['paragraph', 'Next paragraph.'],
        ['footnote', 'A note.'],
      ]);
      expect(blocks(book)[0]!.noteRefs).toEqual([blocks(book)[2]!.id]);
    }
  });

  it('reads files over 7 MB, whose FAT sectors are listed in DIFAT sectors', async () => {
    const paragraph = 'A paragraph long enough to make a large file in few repetitions of it.\r';
    const main = paragraph.repeat(Math.ceil((8 * 1024 * 1024) / paragraph.length));
    const file = compoundFile(word97Streams({ main, compressed: true }));
    expect(file.readUInt32LE(0x48)).toBeGreaterThan(0);
    const book = await docParser.parse(file);
    expect(book.stats.characters).toBe(main.length - main.split('\r').length + 1);
  });

  it('refuses encrypted files as encrypted, not as corrupted', async () => {
    const encrypted97 = compoundFile(word97Streams({ main: 'Secret.\r', flags: 0x0100 }));
    expect((await refusal(encrypted97)).key).toBe('fileEncrypted');
    expect((await refusal(word6({ main: 'Secret.\r', flags: 0x0100 }))).key).toBe('fileEncrypted');
  });
});

describe('DOC refusals', () => {
  it('refuses Word 2.x and older, inside a compound file or not, as too old', async () => {
    expect((await refusal(word6({ main: 'Old.\r', nFib: 45 }))).key).toBe('formatTooOld');
    const word2 = Buffer.alloc(1024);
    word2.writeUInt16LE(0xa5db, 0);
    word2.writeUInt16LE(45, 2);
    expect((await refusal(word2)).key).toBe('formatTooOld');
    const dos = Buffer.alloc(1024);
    Buffer.from([0x31, 0xbe, 0, 0, 0, 0xab]).copy(dos);
    expect((await refusal(dos)).key).toBe('formatTooOld');
    const mac = Buffer.alloc(1024);
    Buffer.from([0xfe, 0x37, 0x00, 0x23]).copy(mac);
    expect((await refusal(mac)).key).toBe('formatTooOld');
  });

  it('says an Excel workbook is not a Word document', async () => {
    expect((await refusal(compoundFile({ Workbook: Buffer.alloc(100) }))).key).toBe('unsupportedFileType');
  });

  it('refuses impossible structures as corrupted: chain loops, pieces outside the stream, huge counts', async () => {
    const looped = compoundFile({ WordDocument: word6Stream({ main: 'Text.\r' }) }, { loopFirstStream: true });
    expect((await refusal(looped)).key).toBe('fileCorrupted');
    const huge = word6Stream({ main: 'Text.\r' });
    huge.writeUInt32LE(0x7fffffff, 0x34);
    expect((await refusal(compoundFile({ WordDocument: huge }))).key).toBe('fileCorrupted');
    const streams = word97Streams({ main: 'Text.\r', fastSaved: true });
    const table = streams['1Table']!;
    // The first piece's fc, pointed far beyond the end of WordDocument.
    table.writeUInt32LE(0x10000000, table.length - 16 + 2);
    expect((await refusal(compoundFile(streams))).key).toBe('fileCorrupted');
  });

  it('never crashes on damaged files: every failure is a ParseError', async () => {
    const originals = [
      word6({
        main: 'Некий текст.\u0002\r',
        footnotes: ['Сноска.'],
        codePage: 'windows-1251',
        fonts: [{ name: 'Arial Cyr', charset: 0 }],
        fontRuns: [{ from: 0, to: 5, font: 0 }],
        normalStyle: { font: 0, lid: 0x419 },
      }),
      word6({ main: 'Fast \u0013F\u0014saved\u0015.\r', fastSaved: true }),
      compoundFile(word97Streams({ main: 'Text\u0002.\r', footnotes: ['Note.'], fastSaved: true })),
    ];
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (const original of originals) {
      for (let round = 0; round < 150; round++) {
        const damaged = Buffer.from(original);
        // Half the damage goes to the FIB (the WordDocument stream starts at the first sector).
        for (let k = 0; k < 8; k++) {
          const at = k % 2 ? 512 + Math.floor(random() * 0x200) : Math.floor(random() * damaged.length);
          damaged[at] = Math.floor(random() * 256);
        }
        const cut = round % 10 === 0 ? damaged.subarray(0, Math.floor(random() * damaged.length)) : damaged;
        const error = await docParser.parse(cut).then(
          () => undefined,
          (e: unknown) => e,
        );
        if (error !== undefined) expect(error).toBeInstanceOf(ParseError);
      }
    }
  });
});
