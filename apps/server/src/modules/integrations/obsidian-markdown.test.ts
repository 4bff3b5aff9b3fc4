import { marked, type Token, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { obsidianMarkdown, type ObsidianHighlight } from './obsidian-markdown.ts';

/** The YAML between the opening `---` and the next `---` line, and the Markdown after it. */
function split(file: string): { frontMatter: unknown; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(file);
  if (!match) throw new Error('no front matter');
  return { frontMatter: parseYaml(match[1]!), body: match[2]! };
}

function walk(tokens: Token[], visit: (token: Token) => void): void {
  for (const token of tokens) {
    visit(token);
    const children = (token as { tokens?: Token[] }).tokens;
    if (children) walk(children, visit);
    const items = (token as { items?: Token[] }).items;
    if (items) walk(items, visit);
  }
}

const HOSTILE_TITLE = 'Moby-Dick\n---\nevil: true\n"quoted" \'single\' : # not a comment \u2028 \u0085 \u007f';
const book = {
  title: HOSTILE_TITLE,
  author: 'Herman "Ishmael" Melville ---',
  language: 'en',
  translationLanguage: 'zh',
  link: 'https://yidu.example/tabs/read/abc/zh',
  exportedAt: '2026-05-01T10:00:00.000Z',
};

const highlight = (
  id: string,
  quote: string,
  other: string,
  note: string,
  chapter = 'Loomings',
): ObsidianHighlight => ({
  id,
  kind: note ? 'annotation' : 'highlight',
  chapterTitle: chapter,
  page: 3,
  text: { quote, quoteLanguage: 'en', other, otherLanguage: 'zh' },
  note,
  link: `https://yidu.example/tabs/read/abc/zh?page=3&block=c1-b${id}&mark=${id}`,
});

describe('Obsidian Markdown', () => {
  it('has YAML front matter a YAML parser reads back exactly, however hostile the title', () => {
    const { frontMatter } = split(obsidianMarkdown(book, []));
    expect(frontMatter).toEqual({
      title: HOSTILE_TITLE,
      author: book.author,
      language: 'en',
      translation_language: 'zh',
      yidu: book.link,
      exported: book.exportedAt,
      tags: ['yidu'],
    });
  });

  it('writes each highlight as a quote with its translation, the note, and a block link back to Yidu', () => {
    const file = obsidianMarkdown(book, [
      highlight('1', 'Call me Ishmael.', '叫我以实玛利。', ''),
      highlight(
        '2',
        'Some years ago—\nnever mind how long',
        '几年前——\n别管多久',
        'A first line.\n\nA second paragraph.',
      ),
      highlight('3', 'Whenever I find myself', '每当我发现自己', '', 'The Carpet-Bag'),
    ]);
    const tokens = marked.lexer(split(file).body);
    const top = tokens.filter((t) => t.type !== 'space');
    expect(top[0]).toMatchObject({ type: 'heading', depth: 1 });
    expect((top[0] as Tokens.Heading).text.replace(/\\/g, '')).toBe(book.title.replace(/\s+/g, ' ').trim());
    const headings = top.filter((t): t is Tokens.Heading => t.type === 'heading' && t.depth === 2).map((t) => t.text);
    expect(headings).toEqual(['Loomings', 'The Carpet-Bag']);
    const quotes = top.filter((t): t is Tokens.Blockquote => t.type === 'blockquote');
    expect(quotes).toHaveLength(3);
    expect(quotes[0]!.text).toContain('Call me Ishmael.');
    expect(quotes[0]!.text).toContain('叫我以实玛利。');
    expect(quotes[1]!.text).toContain('never mind how long');
    expect(quotes[1]!.text).toContain('别管多久');
    const paragraphs = top.filter((t): t is Tokens.Paragraph => t.type === 'paragraph').map((t) => t.text);
    expect(paragraphs).toContain('A first line.');
    expect(paragraphs).toContain('A second paragraph.');
    for (const id of ['1', '2', '3']) {
      const line = file.split('\n').find((l) => l.endsWith(` ^yidu-${id}`));
      expect(line).toContain(`(<https://yidu.example/tabs/read/abc/zh?page=3&block=c1-b${id}&mark=${id}>)`);
    }
    const links: string[] = [];
    walk(tokens, (t) => t.type === 'link' && links.push((t as Tokens.Link).href));
    expect(links).toContain('https://yidu.example/tabs/read/abc/zh?page=3&block=c1-b2&mark=2');
  });

  it('keeps hostile text as text: no raw HTML, no remote image, no link, no heading or rule of its own', () => {
    const hostile = [
      '<script>alert(1)</script><img src=x onerror=alert(2)>',
      '![tracker](https://evil.example/pixel.png)',
      '[click](javascript:alert(3)) [[Secret note]] ==marked== %%hidden%% ^block #tag $x$',
      '---',
      '# Not a heading',
      '> not a nested quote',
      '- not a list',
      '1. not a list either',
      '    not code',
      '<https://evil.example/auto>',
      '`code` *em* _em_ ~~strike~~ | table |',
    ].join('\n');
    const file = obsidianMarkdown({ ...book, title: '<b>Title</b> ![x](https://evil.example/t.png)' }, [
      highlight('9', hostile, hostile, hostile, '<i>Chapter</i> ---'),
    ]);
    const tokens = marked.lexer(split(file).body);
    const kinds = new Set<string>();
    walk(tokens, (t) => kinds.add(t.type));
    for (const forbidden of ['html', 'image', 'hr', 'list', 'code', 'codespan', 'strong', 'del', 'table'])
      expect(kinds.has(forbidden), forbidden).toBe(false);
    const links: string[] = [];
    walk(tokens, (t) => t.type === 'link' && links.push((t as Tokens.Link).href));
    expect(links.every((href) => href.startsWith('https://yidu.example/'))).toBe(true);
    const headings: string[] = [];
    walk(tokens, (t) => t.type === 'heading' && headings.push((t as Tokens.Heading).text));
    expect(headings).toHaveLength(2);
    const html = marked.parser(tokens);
    expect(html).not.toMatch(/<(script|img|b|i)\b/);
    expect(html).toContain('&lt;script&gt;');
    // Obsidian's own syntax stays literal too.
    for (const syntax of ['[[', '==', '%%']) expect(file).not.toContain(syntax);
  });
});
