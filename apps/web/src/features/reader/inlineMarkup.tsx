import { createElement, type MouseEvent, type ReactNode } from 'react';

/** The inline tags a block's html or translation may keep (everything else is unwrapped or dropped). */
const ALLOWED = new Set(['em', 'strong', 'i', 'b', 'sup', 'sub', 'ruby', 'rt', 'rp', 'br', 'span', 'a']);
/** Elements whose content is never text to read. */
const DROPPED = new Set(['script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript', 'svg', 'math']);

export type InlineNode =
  { kind: 'text'; text: string } | { kind: 'el'; tag: string; href?: string; children: InlineNode[] };

/**
 * Parses sanitised inline markup into a small tree of whitelisted elements. Attributes are dropped
 * (only an in-page href "#…" on links is kept); unknown tags keep their text; scripts vanish.
 */
export function parseInline(html: string | null | undefined, fallbackText = ''): InlineNode[] {
  if (html == null) return fallbackText ? [{ kind: 'text', text: fallbackText }] : [];
  if (!/[<&]/.test(html)) return html ? [{ kind: 'text', text: html }] : [];
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${html}</body>`, 'text/html');
  return walk(doc.body);
}

function walk(parent: Node): InlineNode[] {
  const out: InlineNode[] = [];
  parent.childNodes.forEach((node) => {
    if (node.nodeType === 3) {
      const text = node.nodeValue ?? '';
      if (text) out.push({ kind: 'text', text });
      return;
    }
    if (node.nodeType !== 1) return;
    const element = node as Element;
    const tag = element.tagName.toLowerCase();
    if (DROPPED.has(tag)) return;
    const children = walk(element);
    if (!ALLOWED.has(tag)) {
      out.push(...children);
      return;
    }
    if (tag === 'a') {
      const href = element.getAttribute('href') ?? '';
      if (!href.startsWith('#')) {
        out.push(...children);
        return;
      }
      out.push({ kind: 'el', tag, href, children });
      return;
    }
    out.push({ kind: 'el', tag, children: tag === 'br' ? [] : children });
  });
  return out;
}

/** The text a tree renders to (what the browser's textContent gives for the rendered element). */
export function inlineText(nodes: InlineNode[]): string {
  return nodes.map((n) => (n.kind === 'text' ? n.text : inlineText(n.children))).join('');
}

/** A range of characters drawn differently: highlights, underlines, annotations, AI notes. */
export interface Decoration {
  start: number;
  end: number;
  className: string;
  /** For clicks and tests. */
  id?: string;
  title?: string;
  onClick?: (event: MouseEvent<HTMLElement>) => void;
}

export interface RenderOptions {
  decorations?: Decoration[];
  /** In-page links (note references): called with the target id and the marker instead of navigating. */
  onLink?: (targetId: string, marker: HTMLElement) => void;
}

/** Renders the tree as React elements, splitting text at decoration boundaries. Never sets raw HTML. */
export function renderInline(nodes: InlineNode[], options: RenderOptions = {}): ReactNode[] {
  const decorations = (options.decorations ?? []).filter((d) => d.end > d.start);
  let offset = 0;
  let key = 0;

  const renderText = (text: string): ReactNode[] => {
    const from = offset;
    const to = offset + text.length;
    offset = to;
    const relevant = decorations.filter((d) => d.start < to && d.end > from);
    if (relevant.length === 0) return [text];
    const cuts = new Set([from, to]);
    for (const d of relevant) {
      if (d.start > from) cuts.add(d.start);
      if (d.end < to) cuts.add(d.end);
    }
    const points = [...cuts].sort((a, b) => a - b);
    const pieces: ReactNode[] = [];
    for (let i = 0; i < points.length - 1; i++) {
      const a = points[i]!;
      const b = points[i + 1]!;
      let piece: ReactNode = text.slice(a - from, b - from);
      for (const d of relevant) {
        if (d.start <= a && d.end >= b) {
          piece = (
            <span
              key={key++}
              className={d.className}
              data-mark={d.id}
              title={d.title}
              onClick={d.onClick}
              role={d.onClick ? 'button' : undefined}
            >
              {piece}
            </span>
          );
        }
      }
      pieces.push(typeof piece === 'string' ? <span key={key++}>{piece}</span> : piece);
    }
    return pieces;
  };

  const render = (list: InlineNode[]): ReactNode[] =>
    list.flatMap((node): ReactNode[] => {
      if (node.kind === 'text') return renderText(node.text);
      if (node.tag === 'br') return [<br key={key++} />];
      const children = render(node.children);
      if (node.tag === 'a') {
        const target = node.href!.slice(1);
        return [
          <a
            key={key++}
            href={node.href}
            className="yd-note-ref"
            aria-haspopup={options.onLink ? 'dialog' : undefined}
            onClick={(event) => {
              event.preventDefault();
              options.onLink?.(target, event.currentTarget);
            }}
          >
            {children}
          </a>,
        ];
      }
      return [createElement(node.tag, { key: key++ }, ...children)];
    });

  return render(nodes);
}
