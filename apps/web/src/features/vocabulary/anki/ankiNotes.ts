import type { AnkiWord } from '@yidu/shared/integrations';
import type { AnkiNote } from './ankiConnect.ts';

/** What a word gives an Anki note, field by field. */
export const SOURCES = ['word', 'meaning', 'pronunciation', 'sentence', 'sentenceTranslation', 'book'] as const;
export type Source = (typeof SOURCES)[number];

export interface AnkiSettings {
  address: string;
  deck: string;
  model: string;
  /** Each field of the note type and what goes into it ('' for nothing). */
  fields: Record<string, Source | ''>;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Anki fields are HTML: every text is escaped, and the word is marked in its sentence. */
export function sourceValue(word: AnkiWord, source: Source): string {
  switch (source) {
    case 'word':
      return escapeHtml(word.text);
    case 'meaning':
      return escapeHtml(word.meaning);
    case 'pronunciation':
      return escapeHtml(word.pronunciation);
    case 'sentence':
      if (word.wordStart === null || word.wordEnd === null) return escapeHtml(word.sentence);
      return `${escapeHtml(word.sentence.slice(0, word.wordStart))}<b>${escapeHtml(
        word.sentence.slice(word.wordStart, word.wordEnd),
      )}</b>${escapeHtml(word.sentence.slice(word.wordEnd))}`;
    case 'sentenceTranslation':
      return escapeHtml(word.sentenceTranslation);
    case 'book':
      return escapeHtml(word.bookTitle);
  }
}

export function noteOf(word: AnkiWord, settings: AnkiSettings): AnkiNote {
  const fields: Record<string, string> = {};
  for (const [field, source] of Object.entries(settings.fields))
    fields[field] = source ? sourceValue(word, source) : '';
  return {
    deckName: settings.deck,
    modelName: settings.model,
    fields,
    tags: ['yidu'],
    options: { allowDuplicate: false, duplicateScope: 'deck' },
  };
}

const GUESSES: [Source, RegExp][] = [
  ['sentenceTranslation', /translat|翻译|译|übersetz|traduc|번역|訳/i],
  ['sentence', /sentence|context|example|句|satz|phrase|oración|문장|例文/i],
  ['pronunciation', /pronunc|reading|phonetic|ipa|读音|发音|音|ausspr|prononc|발음|読み/i],
  ['book', /book|source|出处|书|buch|livre|libro|책|本/i],
  ['meaning', /meaning|back|definition|gloss|释义|意思|含义|bedeut|sens|signific|뜻|意味/i],
  ['word', /word|front|term|expression|vocab|单词|词|wort|mot|palabra|단어|単語/i],
];

/** A first mapping for a note type: the first field gets the word, the others by their names. */
export function guessFields(fieldNames: string[]): Record<string, Source | ''> {
  const used = new Set<Source>();
  const out: Record<string, Source | ''> = {};
  fieldNames.forEach((name, i) => {
    const guess = i === 0 ? 'word' : GUESSES.find(([source, re]) => !used.has(source) && re.test(name))?.[0];
    const source = guess && !used.has(guess) ? guess : i === 1 && !used.has('meaning') ? 'meaning' : '';
    if (source) used.add(source);
    out[name] = source;
  });
  return out;
}
