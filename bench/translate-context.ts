/**
 * What chapter context costs LLM translation (issue 20): the prompts Yidu sends for real chapters of
 * _Pride and Prejudice_ (en → zh), paged and batched as the reader's page translator does, counted
 * with OpenAI's o200k tokenizer (`gpt-tokenizer`). The reference, measured in the same run, is the
 * same pages translated without context; with context each batch carries the glossary entries it
 * holds and the chapter so far (within CONTEXT_TOKEN_BUDGET), and each page after a chapter's first
 * costs one summary call (the previous summary and the page before, a summary of about 70 words back).
 *
 *   node bench/translate-context.ts        (from the repository root; needs ../shared/corpus)
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { countTokens } from 'gpt-tokenizer';
import { ParseHost } from '../apps/server/src/engines/parsers/isolated/parse-host.ts';
import {
  buildTranslationMessages,
  CONTEXT_TOKEN_BUDGET,
  relevantTerms,
} from '../apps/server/src/engines/translation/llm-segments.ts';
import { splitBatches } from '../apps/server/src/engines/translation/resilient.ts';
import type { ChatMessage } from '../apps/server/src/engines/llm/types.ts';
import { paginate } from '../apps/server/src/modules/books/paginate.ts';
import { SUMMARY_STALE_PAGES, summaryPrompt } from '../apps/server/src/modules/translation/chapter-context.ts';
import { escapeText } from '../apps/server/src/modules/translation/translation.service.ts';

const root = path.resolve(import.meta.dirname, '..');
const corpus = process.env.YIDU_CORPUS_DIR || path.resolve(root, '../shared/corpus');
/** Chapters 1-12 of the novel (the parse's chapters 3-14: the cover and the preface come first). */
const CHAPTERS = { from: 3, to: 14 };
/** As the page translator batches for an LLM engine of 3 concurrent requests (page-translator.ts). */
const FIRST_BATCH = 1;
const MAX_BATCH_BLOCKS = 12;
const PARALLEL = 2;
/** A list price for the cost column: gpt-4o-mini, US$ per million tokens (input, output). */
const PRICE = { input: 0.15, output: 0.6 };
/** The owner's glossary: the names of these chapters as Chinese translations render them. */
const GLOSSARY = Object.entries({
  Elizabeth: '伊丽莎白',
  Lizzy: '丽萃',
  Jane: '简',
  Mary: '玛丽',
  Kitty: '吉蒂',
  Lydia: '莉迪亚',
  'Mr. Bennet': '班纳特先生',
  'Mrs. Bennet': '班纳特太太',
  Bingley: '宾利',
  'Mr. Bingley': '宾利先生',
  'Miss Bingley': '宾利小姐',
  Darcy: '达西',
  'Mr. Darcy': '达西先生',
  Netherfield: '尼日斐花园',
  Longbourn: '浪搏恩',
  Meryton: '麦里屯',
  Lucas: '卢卡斯',
  'Sir William': '威廉爵士',
  Charlotte: '夏绿蒂',
  Hurst: '赫斯特',
  'Mrs. Hurst': '赫斯特太太',
  Collins: '柯林斯',
  Pemberley: '彭伯里',
  Phillips: '腓力普',
}).map(([source, target]) => ({ source, target }));
/** A summary of the length the prompt asks for (at most 70 words), as the model writes them. */
const SUMMARY =
  '班纳特太太听说富有的单身汉宾利先生租下了尼日斐花园，催促丈夫去拜访他。舞会上宾利先生对简很有好感，' +
  '而他的朋友达西先生傲慢冷淡，拒绝与伊丽莎白跳舞，伊丽莎白对他印象很差。语气轻快讽刺。';

const chatTokens = (messages: ChatMessage[]) => 3 + messages.reduce((n, m) => n + 3 + countTokens(m.content), 0);

interface Tally {
  requests: number;
  input: number;
  output: number;
  contextTokens: number[];
}
const tally = (): Tally => ({ requests: 0, input: 0, output: 0, contextTokens: [] });

async function main() {
  const host = new ParseHost({ memoryLimitMb: 640, maxProcesses: 1 });
  let chapters;
  try {
    const input = await readFile(path.join(corpus, 'txt/en-pride-and-prejudice-cp1252-crlf.txt'));
    ({ chapters } = (await host.parseWhole(input, { timeoutMs: 120_000 })).book);
  } finally {
    await host.close();
  }
  const chosen = chapters.slice(CHAPTERS.from - 1, CHAPTERS.to);
  const { pages } = paginate(chosen);
  const plain = tally();
  const context = tally();
  let sourceChars = 0;
  let pageCount = 0;

  chosen.forEach((chapter, c) => {
    const byPage = new Map<number, string[]>();
    chapter.blocks.forEach((block, b) => {
      if (!block.text.trim() || block.type === 'image' || block.type === 'separator') return;
      const page = pages[c]![b]!;
      byPage.set(page, [...(byPage.get(page) ?? []), block.html ?? escapeText(block.text)]);
    });
    let previous: { page: number; summary: string } | undefined;
    const pageTexts = [...byPage.values()];
    pageTexts.forEach((texts, p) => {
      pageCount++;
      sourceChars += texts.reduce((n, t) => n + t.length, 0);
      // The summary of the chapter so far (chapter-context.ts): none on the chapter's first page, made
      // again once the last one is more than SUMMARY_STALE_PAGES old, from the pages since.
      let summary: string | undefined;
      if (p > 0 && (!previous || previous.page < p - SUMMARY_STALE_PAGES)) {
        const since = pageTexts.slice(previous ? previous.page + 1 : 0, p).flat();
        const messages = summaryPrompt({
          bookTitle: 'Pride and Prejudice',
          language: 'zh',
          previous: previous?.summary,
          text: since.join('\n').slice(-4_000),
          terms: relevantTerms(GLOSSARY, since).slice(0, 24),
        });
        context.requests++;
        context.input += chatTokens(messages);
        context.output += countTokens(SUMMARY);
        previous = { page: p - 1, summary: SUMMARY };
      }
      if (p > 0) summary = previous?.summary;
      // Batches as the page translator makes them: the first block alone, then spread over the other requests.
      const size = Math.min(MAX_BATCH_BLOCKS, Math.max(1, Math.ceil((texts.length - FIRST_BATCH) / PARALLEL)));
      const batches = [
        texts.slice(0, FIRST_BATCH),
        ...splitBatches(texts, texts.map((_, i) => i).slice(FIRST_BATCH), size, 6_000).map((b) =>
          b.map((i) => texts[i]!),
        ),
      ].filter((b) => b.length > 0);
      for (const batch of batches) {
        // The translation's own length is the same either way: the source's tokens stand for it.
        const output = countTokens(batch.join('\n'));
        const bare = buildTranslationMessages(batch, 'en', 'zh');
        const rich = buildTranslationMessages(batch, 'en', 'zh', GLOSSARY, summary);
        plain.requests++;
        plain.input += chatTokens(bare);
        plain.output += output;
        context.requests++;
        context.input += chatTokens(rich);
        context.output += output;
        context.contextTokens.push(chatTokens(rich) - chatTokens(bare));
      }
    });
  });

  const sourceTokens = chosen.reduce(
    (n, ch) => n + ch.blocks.reduce((m, b) => m + (b.text.trim() ? countTokens(b.html ?? escapeText(b.text)) : 0), 0),
    0,
  );
  const per1000 = (t: Tally) => {
    const input = (t.input / sourceChars) * 1000;
    const output = (t.output / sourceChars) * 1000;
    return { input, output, usd: (input * PRICE.input + output * PRICE.output) / 1e6 };
  };
  const a = per1000(plain);
  const b = per1000(context);
  const maxContext = Math.max(...context.contextTokens);
  const rows = [
    ['without context (reference)', plain, a, plain.input / sourceTokens],
    ['with glossary and chapter so far', context, b, context.input / sourceTokens],
  ] as const;
  const batchContext = context.contextTokens.reduce((n, x) => n + x, 0);
  const summaryInput = context.input - plain.input - batchContext;
  console.log(
    `context tokens: in the batches ${batchContext} (${(batchContext / context.contextTokens.length).toFixed(0)} a batch), summary calls ${summaryInput} in, ${context.output - plain.output} out`,
  );
  console.log(
    `${chosen.length} chapters, ${pageCount} pages, ${sourceChars} source characters (${sourceTokens} tokens); context per batch at most ${maxContext} tokens (budget ${CONTEXT_TOKEN_BUDGET})`,
  );
  console.log(
    '| prompts | requests | prompt / source (tokens) | input tokens / 1,000 chars | output tokens / 1,000 chars | US$ / 1,000 chars (gpt-4o-mini) | ratio |',
  );
  for (const [name, t, p, overhead] of rows) {
    console.log(
      `| ${name} | ${t.requests} | ${overhead.toFixed(3)} | ${p.input.toFixed(0)} | ${p.output.toFixed(0)} | ${p.usd.toFixed(6)} | ${(p.usd / a.usd).toFixed(2)}x |`,
    );
  }
  await mkdir(path.join(root, 'bench/results'), { recursive: true });
  await writeFile(
    path.join(root, 'bench/results/translate-context.json'),
    JSON.stringify(
      { sourceChars, sourceTokens, pageCount, plain, context: { ...context, contextTokens: undefined }, maxContext },
      null,
      2,
    ),
  );
}

await main();
