import { describe, expect, it } from 'vitest';
import { bookText } from '../builder.ts';
import { ParseError } from '../errors.ts';
import { columnRuns, pdfFixture } from './pdf-fixture.ts';
import type { FixtureFont, FixturePage } from './pdf-fixture.ts';
import { countBadChars, judgeText, measureWords } from './pdf-garbage.ts';
import { pdfParser } from './pdf.ts';
import type { OcrEngine, OcrResult } from '../../ocr/types.ts';

const PROSE = [
  'The committee met on a cold morning in early spring',
  'and spoke about the roads that lead out of the town',
  'where the river turns and the old mill still stands',
  'nobody could say when the bridge would be mended',
  'so the farmers carried their grain around the hill',
  'and the children walked a long way to the school',
];

const NAMES = ['Anna', 'Boris', 'Clara', 'David', 'Emil', 'Flora', 'Georg', 'Hanna'];
let pages = 0;

/** A page of prose (each page its own: lines repeated on every page are running heads). */
function page(font: FixtureFont, extra: Partial<FixturePage> = {}, lines?: string[]): FixturePage {
  const name = NAMES[pages++ % NAMES.length]!;
  const text = lines ?? PROSE.map((line) => `${line} with ${name}`);
  return { runs: columnRuns(text, 72, 700).map((run) => ({ ...run, font })), ...extra };
}

function judge(text: string) {
  const quality = measureWords(text);
  quality.bad = countBadChars(text);
  return judgeText(quality);
}

/** An OCR engine that reads every page as `result`, counting the pages it was given. */
function fakeOcr(result: OcrResult): OcrEngine & { calls: number } {
  return {
    name: 'fake',
    languages: ['en'],
    calls: 0,
    async recognize() {
      this.calls++;
      return result;
    },
    async dispose() {},
  };
}

async function parse(pages: FixturePage[], options: Parameters<typeof pdfParser.parse>[1] = {}) {
  return pdfParser.parse(Buffer.from(pdfFixture(pages)), { pdfHelperThreads: 0, ocrLanguages: ['ru'], ...options });
}

describe('text in fonts without a usable Unicode map', () => {
  it('tells garbage from text by its characters and words', () => {
    expect(judge('3HQČåQt\u0003SURVWĜHGN\\\u0003QD\u0003~þWHFK')).toBe('garbage');
    expect(judge(PROSE.join(' '))).toBe('clean');
    expect(judge('提示符相关的环境变量被设置为“PS1=’\\$’”和“PS2=’> ’” オペレーティングシステム')).toBe('clean');
    // Odd words only raise a doubt: code has them too. The fonts decide.
    expect(judge('Cl>opMa no KHA 1152017 Hanorosas HaCTOHIJ npVIMeHeHVIe CBS3VI')).toBe('doubtful');
    expect(judge('boolNDArray int8NDArray x = getElementById(id) ComplexNDArray charNDArray')).toBe('doubtful');
    // A lone private-use character is a bullet of a symbol font, not garbage.
    expect(judge('\uf0b7 Parcs \uf0b7 Pistes cyclables \uf0b7 Trottoirs')).toBe('clean');
  });

  it('refuses a book whose pages are all garbage when no OCR model reads the language asked', async () => {
    const error = await parse([page('shifted'), page('shifted'), page('shifted')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).key).toBe('textNotExtractable');
  });

  it('refuses plausible-looking Latin garbage from a font with no Unicode map', async () => {
    const error = await parse([page('recoded'), page('recoded')]).catch((e: unknown) => e);
    expect((error as ParseError).key).toBe('textNotExtractable');
  });

  it('refuses an invisible OCR layer that reads as garbage', async () => {
    const garbled = [
      'Cl>opMa no KHA 1152017 Hanorosas aeKnapai IVIs no Hanory',
      'ynnal IVIBaeMoMy B CBS3VI C npVIMeHeHVIeMynpo HOH CVICTeMbl',
      'HoMep KoppeKn1pOBKH 0T48THbiH rO npeICT8BflH8TCH B H8nOrOBbiH',
      'opr8H KOA no M8CTY H8XO8HHH y48T8 KOA Ko Bl 3KOHOMH48CKOH',
    ];
    const scan = (): FixturePage => ({
      image: true,
      runs: columnRuns(garbled, 72, 700).map((r) => ({ ...r, invisible: true })),
    });
    const error = await parse([scan(), scan()]).catch((e: unknown) => e);
    expect((error as ParseError).key).toBe('textNotExtractable');
  });

  it('leaves the garbage of a few pages out of a good book, with a warning', async () => {
    const pages = [page('plain'), page('plain'), page('recoded'), page('plain'), page('shifted'), page('plain')];
    const book = await parse(pages);
    const text = bookText(book);
    expect(text).toContain('The committee met on a cold morning');
    expect(text).not.toMatch(/SURVW|7KH|FRPPLWWHH/);
    expect(book.warnings.join('\n')).toMatch(/unreadable text of 2 pages/);
  });

  it('keeps text that only looks odd when its font maps to Unicode (a code listing)', async () => {
    const code = [
      'boolNDArray x = int8NDArray(dims) and ComplexNDArray y',
      'charNDArray c = getElementById(id) if (a<b) then swap',
      'int16NDArray z = int32NDArray(x) for uint8NDArray u',
      'FloatNDArray f = FloatComplexNDArray(g) return f',
    ];
    const book = await parse([page('plain', {}, code)]);
    expect(bookText(book)).toContain('boolNDArray x = int8NDArray(dims)');
  });

  it('reads garbage pages by OCR when a model reads the language asked, and checks what OCR read', async () => {
    const good = fakeOcr({ text: 'The committee met on a cold morning in early spring.', confidence: 91 });
    const book = await parse([page('shifted'), page('shifted')], { ocrLanguages: ['en'], ocrEngine: good });
    expect(good.calls).toBe(2);
    expect(bookText(book)).toContain('The committee met on a cold morning');

    // Russian read by an English model: Latin garbage, or a low confidence. Given up after two pages.
    const wrongScript = fakeOcr({ text: 'CyMMa aBaHCOBOTO NNIATExa K ynnaTe no cpoky He nosnHee', confidence: 70 });
    const pages = [page('shifted'), page('shifted'), page('shifted'), page('shifted')];
    const error = await parse(pages, { ocrLanguages: ['en'], ocrEngine: wrongScript }).catch((e: unknown) => e);
    expect((error as ParseError).key).toBe('textNotExtractable');
    expect(wrongScript.calls).toBe(2);
  });
});
