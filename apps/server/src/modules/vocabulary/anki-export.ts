/**
 * The vocabulary book as a file Anki imports (File → Import): one note per word with the fields
 * Front (the word), Back (pronunciation, part of speech and meaning, the reader's note), Sentence,
 * Book, and Tags. CSV as RFC 4180 writes it (fields with a separator, a quote, a line break or
 * surrounding spaces are quoted, quotes doubled, lines end in CRLF), or TSV with the same quoting; UTF-8
 * without a byte-order mark. The first lines are Anki's file headers (Anki 2.1.55+ reads them and
 * maps the columns to the note type's fields of the same name — Front and Back of the Basic type — and
 * takes the tags from their column; older versions skip lines starting with '#'). A byte-order mark
 * would hide the headers from Anki, so there is none. A cell that a spreadsheet would run as a
 * formula (=, +, -, @…) starts with an apostrophe instead, as OWASP advises: the file is also opened
 * in spreadsheets, and its Book column carries titles other people chose.
 *
 * Why no .apkg: the npm package that writes one (anki-apkg-export) builds the collection with sql.js
 * 0.5 of 2016 and Anki's legacy schema and is no longer maintained; Anki imports these files as well.
 */

export interface ExportWord {
  text: string;
  lemma: string;
  meaning: string;
  pronunciation: string;
  partOfSpeech: string;
  note: string;
  sentence: string;
  bookTitle: string;
  chapterTitle: string;
}

export type ExportFormat = 'csv' | 'tsv';

export const EXPORT_COLUMNS = ['Front', 'Back', 'Sentence', 'Book', 'Tags'] as const;

/**
 * Characters that make a spreadsheet read a cell as a formula when they open it (OWASP's CSV
 * injection list, with the full-width forms that some locales' spreadsheets also accept). A word, a
 * sentence or a public book's title chosen by its uploader may start with one.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** A cell a spreadsheet shows as text: one that would start a formula gets a leading apostrophe. */
export function neutraliseFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** Quotes a field when the format needs it to survive the trip. */
export function quoteField(value: string, separator: string): string {
  const needsQuotes =
    value.includes(separator) ||
    value.includes('"') ||
    value.includes('\n') ||
    value.includes('\r') ||
    value !== value.trim();
  return needsQuotes ? `"${value.replaceAll('"', '""')}"` : value;
}

/** Anki tags are separated by spaces: each tag is one word. */
const tag = (text: string) => text.trim().replace(/\s+/g, '_').replace(/["']/g, '').slice(0, 60);

function back(word: ExportWord): string {
  const head = [word.pronunciation && `[${word.pronunciation}]`, word.partOfSpeech].filter(Boolean).join(' ');
  return [head, word.meaning, word.lemma && `(${word.lemma})`, word.note].filter(Boolean).join('\n');
}

export function exportVocabulary(words: ExportWord[], format: ExportFormat): string {
  const separator = format === 'csv' ? ',' : '\t';
  const headers = [
    `#separator:${format === 'csv' ? 'Comma' : 'Tab'}`,
    '#html:false',
    // Anki reads the column names with the file's own separator, and maps them to fields of the same name.
    `#columns:${EXPORT_COLUMNS.join(separator)}`,
    `#tags column:${EXPORT_COLUMNS.length}`,
  ];
  const rows = words.map((w) =>
    [
      w.text,
      back(w),
      w.sentence,
      w.chapterTitle ? `${w.bookTitle} · ${w.chapterTitle}` : w.bookTitle,
      ['yidu', tag(w.bookTitle)].filter(Boolean).join(' '),
    ]
      .map((field) => quoteField(neutraliseFormula(field), separator))
      .join(separator),
  );
  return [...headers, ...rows].map((line) => `${line}\r\n`).join('');
}
