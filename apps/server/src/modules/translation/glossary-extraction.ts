import type { Glossary, LanguageCode } from '@yidu/shared';
import { z } from 'zod';
import type { BookRow, UserRow } from '../../db/schema.ts';
import { EngineError } from '../../engines/translation/errors.ts';
import type { LlmClient } from '../../engines/llm/types.ts';
import { fail } from '../../http/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { BooksService } from '../books/books.service.ts';
import { languageName } from '../ai/prompts.ts';
import { MAX_ENTRIES, type GlossaryService } from './glossary.service.ts';
import type { EntryRow } from './glossary.repo.ts';
import { escapeText, type TranslationService } from './translation.service.ts';

const EXTRACTED = z.object({
  terms: z.array(z.object({ source: z.string(), target: z.string(), note: z.string().nullable().optional() })),
});
/** Passages the model reads: about 12,000 characters, spread over the whole book. */
const LLM_SAMPLES = 40;
const LLM_SAMPLE_CHARS = 12_000;
/** The name count looks at more text (it costs no model call): up to 400 passages of 600 characters. */
const NAME_SAMPLES = 400;
const MAX_NAMES = 40;
/** Seen at least this often inside sentences before it counts as a name. */
const MIN_NAME_COUNT = 3;

/** Honorifics and titles that belong to the name that follows ("Mr. Darcy"); alone they name nobody. */
const HONORIFICS =
  '(?:Mr|Mrs|Ms|Miss|Mx|Dr|St|Sir|Dame|Lady|Lord|Captain|Capt|Colonel|Col|General|Major|Rev|Father|Madame|Mme|Monsieur|Mlle|Herr|Frau|Don|Doña|Señor|Señora)';
const HONORIFIC = String.raw`${HONORIFICS}\.?\s+`;
const HONORIFIC_WORD = new RegExp(String.raw`^${HONORIFICS}\.?$`);
/**
 * A capitalised word: an O’/D’/L’ or Mc/Mac prefix glued to a capital (O’Connell, D’Arcy, McCarthy),
 * then lower-case letters, and further parts after an apostrophe or hyphen (Mary-Anne, Elizabeth’s).
 */
const WORD = String.raw`(?:\p{Lu}['’](?=\p{Lu})|Ma?c(?=\p{Lu}))?\p{Lu}[\p{Ll}\p{M}]+(?:['’-]\p{L}[\p{Ll}\p{M}]*)*`;
/**
 * Up to two honorifics ("Lord St. Simon"), then a run of up to three capitalised words; an honorific
 * inside a run starts the next name ("Later Mr. Bloom": "Later", then "Mr. Bloom").
 */
const NAME = new RegExp(String.raw`(?:${HONORIFIC}){0,2}${WORD}(?:\s+(?!${HONORIFICS}\b)${WORD}){0,2}`, 'gu');
/**
 * Never a name alone: words that name a part of a book or its furniture, capitalised in headings and
 * captions, and forms of address ("her Ladyship").
 */
const NOT_NAMES = new Set(
  'Book Books Chapter Part Volume Section Contents Preface Foreword Introduction Prologue Epilogue Appendix Index Illustration Illustrations Figure Table Page Note Notes Footnote Copyright Title Author Editor Translator Glossary Canto Act Scene Ladyship Lordship Majesty Highness Excellency'.split(
    ' ',
  ),
);
/** Words in lower case, counted to tell a common word written with a capital ("Book") from a name. */
const LOWER_WORD = /(?<![\p{L}\p{M}])\p{Ll}[\p{Ll}\p{M}]*/gu;
/** A capital after these starts a sentence (or a quotation): it says nothing about a name. */
const SENTENCE_START = /(?:^|[.!?:"“”‘'«»—–([]\s*)$/u;

/**
 * The names of a book in a Latin, Cyrillic or Greek script, without a model: capitalised words (and
 * runs of up to three, with an honorific) seen at least three times inside sentences and there more
 * often than at their starts. Left out: an honorific or title alone ("Mrs"), a word naming a part of
 * the book ("Chapter", "Illustration") or a form of address ("Ladyship"), and a single word the text also writes in lower case at least
 * as often (a common word capitalised where it opens a heading or a title: "Book"). Most frequent first.
 */
export function frequentNames(texts: readonly string[], max = MAX_NAMES): string[] {
  const inside = new Map<string, number>();
  const atStart = new Map<string, number>();
  const lower = new Map<string, number>();
  const count = (counts: Map<string, number>, name: string) => counts.set(name, (counts.get(name) ?? 0) + 1);
  for (const text of texts) {
    for (const match of text.matchAll(LOWER_WORD)) count(lower, match[0]);
    for (const match of text.matchAll(NAME)) {
      // "Elizabeth's" is Elizabeth.
      const name = match[0].replace(/\s+/g, ' ').replace(/['’]s$/, '');
      const before = text.slice(Math.max(0, (match.index ?? 0) - 3), match.index);
      if (!SENTENCE_START.test(before)) {
        count(inside, name);
        continue;
      }
      // "Then Jane Bennet laughed": the opener is no part of the name that follows it.
      const [opener, ...rest] = name.split(' ');
      if (rest.length === 0 || HONORIFIC_WORD.test(opener!)) count(atStart, name);
      else {
        count(atStart, opener!);
        count(inside, rest.join(' '));
      }
    }
  }
  const common = (name: string, n: number) =>
    !name.includes(' ') && (NOT_NAMES.has(name) || (lower.get(name.toLowerCase()) ?? 0) >= n);
  return [...inside.entries()]
    .filter(
      ([name, n]) =>
        n >= MIN_NAME_COUNT &&
        n > (atStart.get(name) ?? 0) &&
        [...name].length > 2 &&
        !HONORIFIC_WORD.test(name) &&
        !common(name, n),
    )
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, max)
    .map(([name]) => name);
}

/** Whether a text is written mostly in scripts with capital letters (where frequentNames can work). */
const casedScript = (text: string) => {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const cased = text.match(/[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]/gu)?.length ?? 0;
  return letters > 0 && cased / letters > 0.8;
};

/**
 * Fills a book's glossary for a language with its names and recurring terms: one model call over
 * passages spread over the book (cheap: ~12,000 characters in, at most 60 terms out) when a model
 * is configured; otherwise, for books in cased scripts, the most frequent capitalised names, rendered
 * by the translation engines (through the memory). Entries already there are kept as they are.
 */
export class GlossaryExtraction {
  private readonly d: {
    glossary: GlossaryService;
    books: BooksService;
    translation: TranslationService;
    /** The explanation model as configured now (admins change it at run time). */
    llm: () => LlmClient | undefined;
    logger: Logger;
  };
  constructor(deps: GlossaryExtraction['d']) {
    this.d = deps;
  }

  /** The owner asks for it (the glossary panel). */
  async extractFor(user: UserRow, code: string, language: string): Promise<Glossary> {
    const book = await this.d.glossary.editable(user, code);
    const lang = this.d.glossary.language(language);
    await this.extract(book, lang, { strict: true });
    return this.d.glossary.get(user, code, language);
  }

  /** The job after a book is stored: for the uploader's reading language, once. */
  async afterUpload(bookId: number, lang: string): Promise<void> {
    const book = await this.d.books.repo.findBookById(bookId);
    if (!book || book.status !== 'ready' || book.original_language === lang) return;
    if ((await this.d.glossary.repo.entries(book.id, lang)).length > 0) return;
    const added = await this.extract(book, lang, { strict: false });
    this.d.logger.info({ bookId, lang, added }, 'glossary extracted');
  }

  /** Adds what was found; `strict`: a model that fails is the caller's error rather than a reason to count names. */
  private async extract(book: BookRow, lang: string, options: { strict: boolean }): Promise<number> {
    let found: EntryRow[] | undefined;
    const llm = this.d.llm();
    if (llm) {
      try {
        found = await this.askModel(llm, book, lang);
      } catch (error) {
        if (options.strict) throw error;
        this.d.logger.warn({ bookId: book.id, err: error }, 'glossary extraction by the model failed; counting names');
      }
    }
    found ??= await this.countNames(book, lang);
    const before = (await this.d.glossary.repo.entries(book.id, lang)).length;
    await this.d.glossary.repo.addMissing(book.id, lang, found, MAX_ENTRIES);
    return (await this.d.glossary.repo.entries(book.id, lang)).length - before;
  }

  private async askModel(llm: LlmClient, book: BookRow, lang: string): Promise<EntryRow[]> {
    const sample = await this.d.books.repo.sampleText(book.id, LLM_SAMPLES);
    let answer;
    try {
      answer = await llm.complete(
        [
          {
            role: 'system',
            content:
              `From passages of the book "${book.title}" (${languageName(book.original_language)}), list the names of people, places and organisations and the recurring special terms, ` +
              `each with one consistent rendering in ${languageName(lang)} (use the established translation when there is one). At most 60. ` +
              'Answer JSON only: {"terms":[{"source":"...","target":"...","note":"person|place|organisation|term"}]}',
          },
          { role: 'user', content: sample.join('\n\n').slice(0, LLM_SAMPLE_CHARS) },
        ],
        { responseFormat: 'json', maxTokens: 2500, temperature: 0.1 },
      );
    } catch (error) {
      if (error instanceof EngineError) throw fail('aiUnavailable', { reason: error.kind });
      throw error;
    }
    const json = answer.text.slice(answer.text.indexOf('{'), answer.text.lastIndexOf('}') + 1);
    let parsed;
    try {
      parsed = EXTRACTED.safeParse(JSON.parse(json));
    } catch {
      parsed = undefined;
    }
    if (!parsed?.success) throw fail('aiUnavailable', { reason: 'badResponse' });
    return parsed.data.terms.flatMap((term) => {
      const source = term.source.trim().slice(0, 200);
      const target = term.target.trim().slice(0, 200);
      return source && target
        ? [{ source, target, note: term.note?.trim().slice(0, 500) || null, origin: 'extracted' as const }]
        : [];
    });
  }

  private async countNames(book: BookRow, lang: string): Promise<EntryRow[]> {
    const sample = await this.d.books.repo.sampleText(book.id, NAME_SAMPLES);
    if (!casedScript(sample.join(' ').slice(0, 20_000))) return [];
    const names = frequentNames(sample);
    if (names.length === 0) return [];
    try {
      const rendered = await this.d.translation.translate(
        names.map(escapeText),
        book.original_language ?? 'auto',
        lang as LanguageCode,
      );
      return names.flatMap((source, i) => {
        const target = decode(rendered[i]?.translation ?? '')
          .trim()
          .slice(0, 200);
        return target ? [{ source, target, note: null, origin: 'extracted' as const }] : [];
      });
    } catch (error) {
      this.d.logger.warn({ bookId: book.id, err: error }, 'names found, but no engine rendered them');
      return [];
    }
  }
}

const decode = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);
