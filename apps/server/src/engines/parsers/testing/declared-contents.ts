/**
 * An EPUB's contents as the file declares them, read for tests independently of the parsers: a
 * plain tokenizer over the navigation document (EPUB 3) or the NCX (EPUB 2) and over the content
 * documents, no shared code with `markup.ts` or `epub-toc.ts`. Each entry comes with its title, its
 * depth and the text found where it leads (from the target element on, white space removed), so
 * that a parsed book's contents can be compared with it entry by entry.
 */
import path from 'node:path';
import JSZip from 'jszip';

interface Node {
  name: string;
  attrs: Record<string, string>;
  children: (Node | string)[];
}

export interface DeclaredEntry {
  title: string;
  level: number;
  /** The zip path and fragment it leads to (a label without a link: its first child's). */
  path: string;
  fragment?: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
const decode = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) =>
    e[0] === '#'
      ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
      : (ENTITIES[e] ?? m),
  );

/** A tree of elements (names lower-cased, prefixes dropped) and text. */
export function xmlTree(xml: string): Node {
  const root: Node = { name: '#root', attrs: {}, children: [] };
  const stack = [root];
  const token =
    /<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<[?!][^>]*>|<(\/?)([\w:.-]+)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/g;
  for (let m = token.exec(xml); m; m = token.exec(xml)) {
    const top = stack[stack.length - 1]!;
    if (m[1] !== undefined) top.children.push(m[1]);
    else if (m[6] !== undefined) top.children.push(decode(m[6]));
    else if (m[3]) {
      const name = m[3].toLowerCase().replace(/^.*:/, '');
      if (m[2]) {
        const at = stack.findLastIndex((n) => n.name === name);
        if (at > 0) stack.length = at;
        continue;
      }
      const attrs: Record<string, string> = {};
      for (const a of (m[4] ?? '').matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
        attrs[a[1]!.toLowerCase()] = decode(a[2] ?? a[3] ?? '');
      }
      const node: Node = { name, attrs, children: [] };
      top.children.push(node);
      if (!m[5]) stack.push(node);
    }
  }
  return root;
}

const elements = (node: Node) => node.children.filter((c): c is Node => typeof c !== 'string');
const text = (node: Node | string): string => (typeof node === 'string' ? node : node.children.map(text).join(''));
const clean = (t: string) => t.replace(/\s+/g, ' ').trim();

function find(node: Node, test: (n: Node) => boolean): Node | undefined {
  for (const child of elements(node)) {
    if (test(child)) return child;
    const found = find(child, test);
    if (found) return found;
  }
  return undefined;
}

const isRemote = (href: string) => /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//');

function target(base: string, href: string): { path: string; fragment?: string } {
  const hash = href.indexOf('#');
  const file = hash === -1 ? href : href.slice(0, hash);
  const resolved = file ? path.posix.normalize(path.posix.join(path.posix.dirname(base), decodeURI(file))) : base;
  return hash === -1 ? { path: resolved } : { path: resolved, fragment: decodeURIComponent(href.slice(hash + 1)) };
}

/** The package's navigation document (or NCX) path and kind. */
async function tocFile(zip: JSZip): Promise<{ path: string; kind: 'nav' | 'ncx' } | undefined> {
  const container = zip.file('META-INF/container.xml');
  const opfPath = container
    ? find(xmlTree(await container.async('string')), (n) => n.name === 'rootfile')!.attrs['full-path']!
    : Object.keys(zip.files).find((name) => name.endsWith('.opf'))!;
  const opf = xmlTree(await zip.file(opfPath)!.async('string'));
  const items = [] as Node[];
  const collect = (n: Node) => elements(n).forEach((c) => (c.name === 'item' ? items.push(c) : collect(c)));
  collect(opf);
  const at = (href: string) => path.posix.join(path.posix.dirname(opfPath), decodeURI(href));
  const nav = items.find((i) => (i.attrs.properties ?? '').split(/\s+/).includes('nav'));
  if (nav) return { path: at(nav.attrs.href!), kind: 'nav' };
  const ncx = items.find((i) => i.attrs['media-type'] === 'application/x-dtbncx+xml');
  return ncx ? { path: at(ncx.attrs.href!), kind: 'ncx' } : undefined;
}

/** The contents an EPUB declares, in order, an entry before its children. */
export async function declaredContents(epub: Buffer | JSZip): Promise<DeclaredEntry[]> {
  const zip = epub instanceof JSZip ? epub : await JSZip.loadAsync(epub);
  const toc = await tocFile(zip);
  if (!toc) return [];
  const tree = xmlTree(await zip.file(toc.path)!.async('string'));
  const out: DeclaredEntry[] = [];
  // Entries of a list; each returns where its first entry leads (for a label without a link).
  const walk = (items: Node[], level: number): DeclaredEntry | undefined => {
    let first: DeclaredEntry | undefined;
    for (const item of items) {
      let title: string;
      let href: string | undefined;
      let sub: Node[];
      if (toc.kind === 'nav') {
        const label = elements(item).find((c) => c.name === 'a' || c.name === 'span');
        title = clean(label ? text(label) : '');
        href = label?.name === 'a' ? label.attrs.href : undefined;
        sub = elements(elements(item).find((c) => c.name === 'ol' || c.name === 'ul') ?? item).filter(
          (c) => c.name === 'li',
        );
      } else {
        const label = elements(item).find((c) => c.name === 'navlabel');
        title = clean(label ? text(label) : '');
        href = elements(item).find((c) => c.name === 'content')?.attrs.src;
        sub = elements(item).filter((c) => c.name === 'navpoint');
      }
      if (href && isRemote(href)) href = undefined;
      const entry: DeclaredEntry = { title, level, path: '' };
      out.push(entry);
      const child = walk(sub, level + 1);
      if (href) Object.assign(entry, target(toc.path, href));
      else if (child) Object.assign(entry, { path: child.path, fragment: child.fragment });
      else out.splice(out.indexOf(entry), 1); // neither a link nor entries under it: nothing to lead to
      if (entry.path && !first) first = entry;
    }
    return first;
  };
  if (toc.kind === 'nav') {
    const navs: Node[] = [];
    const collect = (n: Node) => elements(n).forEach((c) => (c.name === 'nav' ? navs.push(c) : collect(c)));
    collect(tree);
    const nav = navs.find((n) => /\btoc\b/.test(n.attrs['epub:type'] ?? n.attrs.type ?? '')) ?? navs[0];
    const list = nav && find(nav, (n) => n.name === 'ol' || n.name === 'ul');
    if (list)
      walk(
        elements(list).filter((c) => c.name === 'li'),
        1,
      );
  } else {
    const map = find(tree, (n) => n.name === 'navmap');
    if (map)
      walk(
        elements(map).filter((c) => c.name === 'navpoint'),
        1,
      );
  }
  return out;
}

/**
 * The text of a content document from an element on (the element with the id, or the body), white
 * space removed: what the entry leading there should start the block it lands on with.
 */
export async function textAt(zip: JSZip, file: string, fragment?: string): Promise<string | undefined> {
  const entry = zip.file(file);
  if (!entry) return undefined;
  const tree = xmlTree(await entry.async('string'));
  const body = find(tree, (n) => n.name === 'body') ?? tree;
  const start = fragment ? find(body, (n) => n.attrs.id === fragment) : body;
  if (!start) return undefined;
  let started = false;
  let out = '';
  const visit = (node: Node | string) => {
    if (out.length > 400) return;
    if (typeof node === 'string') {
      if (started) out += node;
      return;
    }
    if (node === start) started = true;
    if (['script', 'style', 'rt', 'rp'].includes(node.name)) return;
    node.children.forEach(visit);
  };
  visit(body);
  return out.replace(/\s+/g, '');
}
