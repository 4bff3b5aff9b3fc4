/**
 * PDFs whose Cyrillic fonts map their codes to Latin-1 (old LaTeX T2A setups) or WinAnsi (Word's
 * Cyrillic fonts under a Western code page): read as Russian, font by font, while the maths font and
 * a real Latin-1 quotation on the same pages stay as they are.
 */
import { describe, expect, it } from 'vitest';
import { detectBookLanguage } from '../../language/detect.ts';
import { bookText } from '../builder.ts';
import type { ParsedBook } from '../types.ts';
import { pdfParser } from './pdf.ts';
import { legacyCyrillicPdf, setParagraphs } from './pdf-mojibake-fixture.ts';
import type { LegacyRun } from './pdf-mojibake-fixture.ts';

const PARAGRAPHS = [
  'Теория вероятностей изучает закономерности, возникающие при массовых случайных явлениях. Если один и тот же опыт повторяется много раз при неизменных условиях, то частота появления события постепенно устанавливается около некоторого числа, которое называют вероятностью этого события.',
  'В этой главе мы рассмотрим основные понятия и определения, которые понадобятся нам в дальнейшем. Начнем с пространства элементарных исходов, затем перейдем к случайным событиям и операциям над ними, а в конце главы обсудим классическое определение вероятности и его ограничения.',
  'Случайная величина есть функция, заданная на пространстве элементарных исходов. Ее распределение полностью описывает поведение величины, поэтому многие задачи сводятся к вычислению распределений и их числовых характеристик: математического ожидания, дисперсии и моментов высших порядков.',
  'Для двух независимых событий вероятность их совместного наступления равна произведению вероятностей. Это простое правило позволяет решать задачи о бросании монет и игральных костей, а также служит основой для более сложных моделей, с которыми мы познакомимся в следующих главах.',
];
const LAPLACE =
  "« La théorie des probabilités n'est, au fond, que le bon sens réduit au calcul. » Pierre-Simon de Laplace, 1814";

/** Runs side by side on one baseline, each as wide as the fixture's fonts make it (5 pt a character at 10 pt). */
function inline(y: number, parts: [string, LegacyRun['font']][]): LegacyRun[] {
  let x = 72;
  return parts.map(([text, font]) => {
    const run = { text, x, y, font };
    x += text.length * (font === 'math' ? 7.8 : 5) + 3;
    return run;
  });
}

/** A short textbook: a title page, a chapter page with two words, and pages of text with a formula and a quotation. */
function textbook(): LegacyRun[][] {
  return [
    [
      { text: 'Не очень краткое введение', x: 100, y: 600, size: 17, font: 'bold' },
      { text: 'в теорию вероятностей', x: 120, y: 576, size: 17, font: 'bold' },
      { text: 'Учебное пособие', x: 220, y: 500 },
      { text: 'Москва 1998', x: 250, y: 120 },
    ],
    [{ text: 'Глава 1', x: 250, y: 500, size: 20, font: 'bold' }],
    [
      { text: 'Случайные события', x: 72, y: 760, size: 12, font: 'bold' },
      ...setParagraphs(PARAGRAPHS.slice(0, 2), 730),
      ...inline(560, [
        ['Например, P(A и B) = P(A)', 'roman'],
        ['×', 'math'],
        ['P(B), а ошибка равна 0,5', 'roman'],
        ['±', 'math'],
        ['0,1.', 'roman'],
      ]),
      { text: '3', x: 290, y: 60 },
    ],
    [
      ...setParagraphs(PARAGRAPHS.slice(2), 760),
      { text: LAPLACE, x: 72, y: 600, size: 9, font: 'latin' },
      { text: '4', x: 290, y: 60 },
    ],
  ];
}

const allText = (book: ParsedBook) => book.chapters.flatMap((c) => c.blocks.map((b) => b.text)).join('\n');
const squeeze = (text: string) => text.replace(/\s+/g, ' ');

describe('PDF fonts that map Cyrillic letters to Latin-1', () => {
  it('reads an old LaTeX T2A book as Russian: every font of its pages, the title page and a page of two words', async () => {
    const book = await pdfParser.parse(Buffer.from(legacyCyrillicPdf('latex', textbook())), { pdfHelperThreads: 0 });
    const text = squeeze(allText(book));
    for (const paragraph of PARAGRAPHS) expect(text).toContain(paragraph);
    expect(text).toContain('Не очень краткое введение в теорию вероятностей');
    expect(text).toContain('Москва 1998');
    expect(text).toContain('Глава 1');
    expect(text).toContain('Случайные события');
    // The maths font maps × and ± to Unicode itself: they stay, between the repaired words.
    expect(text).toContain('Например, P(A и B) = P(A) × P(B), а ошибка равна 0,5 ± 0,1.');
    // A real Latin-1 quotation in a font of its own is not touched.
    expect(text).toContain(LAPLACE);
    expect(text).not.toMatch(/[ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞßäåæçèêëìíîïðñòóôõöøùúûüýþÿ]/);
    expect(book.warnings.join('\n')).toMatch(/windows-1251/);
    expect(detectBookLanguage(book)).toMatchObject({ code: 'ru', detected: 'ru', reliable: true });
  });

  it('reads Word text in a Cyrillic TrueType font with WinAnsiEncoding as Windows-1251, punctuation and ё included', async () => {
    const quote = '«Ещё не всё потеряно», — сказал он; см. № 5.';
    const pages = [[...setParagraphs([...PARAGRAPHS.slice(0, 3), quote], 760)]];
    const book = await pdfParser.parse(Buffer.from(legacyCyrillicPdf('word', pages)), { pdfHelperThreads: 0 });
    const text = squeeze(allText(book));
    for (const paragraph of PARAGRAPHS.slice(0, 3)) expect(text).toContain(paragraph);
    expect(text).toContain(quote);
    expect(detectBookLanguage(book).code).toBe('ru');
  });

  it('leaves real Latin-1 text alone: French, German, Icelandic, Spanish in a WinAnsi font', async () => {
    const latin = [
      "Il était une fois, près de la forêt, une princesse qui rêvait d'aventures ; l'été passé, elle écrivit à sa sœur Noëlle une lettre pleine de naïveté.",
      'Über allen Gipfeln ist Ruh, in allen Wipfeln spürest du kaum einen Hauch; die Vögelein schweigen im Walde. Größe und Mäßigung führen zur Schönheit.',
      'Það var einu sinni kóngur og drottning í ríki sínu; þau áttu sér eina dóttur sem hét Ása. Hún var fríð sýnum og vel að sér gjör, átján ára gömul.',
      'En un lugar de la Mancha, de cuyo nombre no quiero acordarme, no ha mucho tiempo que vivía un hidalgo. ¿Qué más decir? ¡Año tras año, señor!',
    ];
    const runs = latin.flatMap((paragraph, i) =>
      setParagraphs([paragraph], 760 - i * 60).map((run) => ({ ...run, font: 'latin' as const, size: 9 })),
    );
    const book = await pdfParser.parse(Buffer.from(legacyCyrillicPdf('latex', [runs])), { pdfHelperThreads: 0 });
    const text = squeeze(bookText(book));
    for (const paragraph of latin) expect(text).toContain(paragraph);
    expect(book.warnings.join('\n')).not.toMatch(/windows-|koi8|iso-8859/);
  });
});
