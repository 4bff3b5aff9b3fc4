import type { HighlightText } from './highlight-text.ts';

export interface ObsidianBook {
  title: string;
  author: string;
  /** The book's language and the reading language. */
  language: string;
  translationLanguage: string;
  link: string;
  exportedAt: string;
}

export interface ObsidianHighlight {
  id: string;
  kind: 'highlight' | 'underline' | 'annotation';
  chapterTitle: string;
  page: number;
  text: HighlightText;
  note: string;
  link: string;
}

/**
 * A YAML scalar that means exactly `value`: a double-quoted string (JSON's escapes are YAML's), with
 * what YAML does not print raw (DEL, C1 controls, the Unicode line and paragraph separators) escaped too.
 */
export function yamlString(value: string): string {
  return JSON.stringify(value).replace(
    /[\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Book text as literal Markdown: every character that could start markup (emphasis, links, images,
 * raw HTML, autolinks, Obsidian's wikilinks, highlights, comments, tags, maths and block ids) is escaped with a
 * backslash, which CommonMark allows before any ASCII punctuation; what could open a block at the
 * start of a line (a list, heading, rule, quote) is escaped there, and leading spaces (a code block) dropped.
 */
export function markdownText(line: string): string {
  return (
    line
      .trimStart()
      .replace(/[\\`*_[\]<>!|~=^%$#&{}]/g, (c) => `\\${c}`)
      // No address in the book's text becomes a link by itself (GFM's and Obsidian's autolinks).
      .replace(/:\/\//g, '\\://')
      .replace(/\bwww\./gi, (w) => `${w.slice(0, 3)}\\.`)
      .replace(/^[-+]/, (c) => `\\${c}`)
      .replace(/^(\d+)([.)])/, '$1\\$2')
  );
}

/** Lines of text as Markdown lines, blank lines kept (paragraph breaks), each line escaped. */
const markdownLines = (text: string): string[] =>
  text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => (line.trim() ? markdownText(line) : ''));

/** One Markdown file per book for an Obsidian vault: YAML front matter, then the highlights by chapter. */
export function obsidianMarkdown(book: ObsidianBook, highlights: ObsidianHighlight[]): string {
  const out = [
    '---',
    `title: ${yamlString(book.title)}`,
    `author: ${yamlString(book.author)}`,
    `language: ${yamlString(book.language)}`,
    `translation_language: ${yamlString(book.translationLanguage)}`,
    `yidu: ${yamlString(book.link)}`,
    `exported: ${yamlString(book.exportedAt)}`,
    'tags:',
    '  - "yidu"',
    '---',
    '',
    `# ${markdownText(oneLine(book.title))}`,
    '',
    `${markdownText(oneLine(book.author))} · [Yidu](<${book.link}>)`,
    '',
  ];
  let chapter: string | undefined;
  for (const h of highlights) {
    if (h.chapterTitle !== chapter) {
      chapter = h.chapterTitle;
      if (chapter) out.push(`## ${markdownText(oneLine(chapter))}`, '');
    }
    for (const line of markdownLines(h.text.quote)) out.push(line ? `> ${line}` : '>');
    if (h.text.other) {
      out.push('>');
      for (const line of markdownLines(h.text.other)) out.push(line ? `> *${line}*` : '>');
    }
    out.push('');
    if (h.note.trim()) out.push(...markdownLines(h.note.trim()), '');
    // The link back to the paragraph in Yidu, and an Obsidian block id to link to this highlight.
    out.push(`[p. ${h.page} · ${h.kind}](<${h.link}>) ^yidu-${h.id}`, '');
  }
  return out.join('\n');
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
