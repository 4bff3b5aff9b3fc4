import { englishLanguageName } from '@yidu/shared';
import type { ChatMessage } from '../../engines/llm/types.ts';
import type { GlossaryTerm } from '../../engines/translation/types.ts';

/** Prompts of the AI reading aids. Short system prompts; the book's own text as context. */

/** A reading language's name, or Intl's for a book detected outside the 26 ('he' → Hebrew). */
export const languageName = (code: string | null | undefined): string =>
  englishLanguageName(code ?? '') ?? 'the original language';

export interface PassageContext {
  bookTitle: string;
  author: string;
  chapterTitle: string;
  bookLanguage: string;
  paragraph: string;
  before?: string;
  after?: string;
  /** The book's glossary entries occurring in the passage: answers name things as the translation does. */
  terms?: GlossaryTerm[];
}

/** The glossary line of a prompt, or nothing. */
export function termsLine(terms: GlossaryTerm[] | undefined): string[] {
  return terms?.length
    ? [
        `Names and terms as this book's translation renders them: ${terms.map((t) => `${t.source} = ${t.target}`).join('; ')}`,
      ]
    : [];
}

export function explainPrompt(
  ctx: PassageContext,
  selection: string,
  readerLanguage: string,
  advanced: boolean,
): ChatMessage[] {
  const system = advanced
    ? `You help a reader understand a book written in ${languageName(ctx.bookLanguage)}. Answer in ${languageName(readerLanguage)}. ` +
      'Explain the selected passage under these short headings: Meaning in context; Grammar; Vocabulary (key words with brief glosses); ' +
      'Cultural and historical background; Role in the chapter and the book. Skip a heading only when it has nothing useful. Under 400 words.'
    : `You help a reader understand a book written in ${languageName(ctx.bookLanguage)}. Answer in ${languageName(readerLanguage)}. ` +
      'Explain what the selected text means here, including difficult words, names or references a reader might miss. Be clear and brief: under 150 words.';
  const lines = [`Book: ${ctx.bookTitle} (${ctx.author})`, `Chapter: ${ctx.chapterTitle}`];
  if (advanced && ctx.before) lines.push(`Previous paragraph: ${ctx.before}`);
  lines.push(`Paragraph: ${ctx.paragraph}`);
  if (advanced && ctx.after) lines.push(`Next paragraph: ${ctx.after}`);
  lines.push(`Selected: ${selection}`, ...termsLine(ctx.terms));
  return [
    { role: 'system', content: system },
    { role: 'user', content: lines.join('\n') },
  ];
}

const LEVELS: Record<string, string> = {
  simple: 'very simple words and short sentences, as for a learner at CEFR A2 / HSK 3',
  intermediate: 'plain everyday language, as for a learner at CEFR B1-B2 / HSK 4-5',
  advanced: 'clear modern language for a fluent reader (CEFR C1), keeping nuance',
};

export function restatePrompt(
  ctx: PassageContext,
  selection: string,
  selectionLanguage: string,
  level: string,
): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        `Rewrite the selected text in ${languageName(selectionLanguage)} using ${LEVELS[level] ?? LEVELS.simple}. ` +
        'Keep the meaning, names and facts; drop nothing important. Output only the rewritten text.',
    },
    {
      role: 'user',
      content: [`Context paragraph: ${ctx.paragraph}`, `Selected: ${selection}`, ...termsLine(ctx.terms)].join('\n'),
    },
  ];
}

export function annotatePrompt(
  ctx: Omit<PassageContext, 'paragraph'>,
  blocks: string[],
  readerLanguage: string,
): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        `You annotate a page of a book written in ${languageName(ctx.bookLanguage)} for a reader whose language is ${languageName(readerLanguage)}. ` +
        'Pick the hard words, names, idioms, allusions and tricky grammar a reader would stumble on (at most 12 notes). ' +
        `Write each note in ${languageName(readerLanguage)}, one or two sentences. ` +
        'Answer JSON only: {"notes":[{"p":<paragraph number>,"term":"<exact words from that paragraph>","kind":"word|name|idiom|allusion|grammar|other","note":"..."}]}',
    },
    {
      role: 'user',
      content:
        [`Book: ${ctx.bookTitle} (${ctx.author}), chapter: ${ctx.chapterTitle}`, ...termsLine(ctx.terms)].join('\n') +
        '\n' +
        blocks.map((b, i) => `[${i + 1}] ${b}`).join('\n'),
    },
  ];
}

export function searchPrompt(
  bookTitle: string,
  question: string,
  passages: string[],
  readerLanguage: string,
): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        `Answer the reader's question about the book "${bookTitle}" in ${languageName(readerLanguage)}, using only the numbered passages. ` +
        'Cite the passages you use as [n] right after the statement they support. If the passages do not answer the question, say so briefly.',
    },
    { role: 'user', content: `Question: ${question}\n\n` + passages.map((p, i) => `[${i + 1}] ${p}`).join('\n\n') },
  ];
}
