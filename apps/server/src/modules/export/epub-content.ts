import sanitizeHtml from 'sanitize-html';

export type ExportMode = 'bilingual' | 'translated';

/** A block of the book with its finished translation (inline markup), as the export writes it. */
export interface ExportBlock {
  blockId: string;
  type: string;
  text: string;
  html: string | null;
  level: number | null;
  imageId: string | null;
  noteLabel: string | null;
  referencedBy: string[] | null;
  /** Whether the block is read as text and so has a translation (see isTranslatable). */
  translatable: boolean;
  translation: string | null;
}

/** What a content document needs to know beyond its own blocks. */
export interface RenderContext {
  mode: ExportMode;
  /** BCP 47 tags of the book's language and of the translation. */
  originalLang: string;
  targetLang: string;
  /** The content document (relative to the text folder) holding a block, for links across files. */
  fileOf(blockId: string): string | undefined;
  /** The picture of an image block (href relative to the text folder), when it made it into the book. */
  imageHref(imageId: string): string | undefined;
}

/** The id of a block's translation: beside the original in a bilingual book, the block's own otherwise. */
const translationId = (blockId: string, mode: ExportMode) => (mode === 'bilingual' ? `${blockId}-t` : blockId);

const RTL = new Set(['ar', 'fa', 'ur', 'he', 'yi', 'ps', 'sd', 'ug', 'dv']);
export const isRightToLeft = (tag: string) => RTL.has(tag.split('-')[0]!.toLowerCase());

/** Yidu's language codes as BCP 47 tags ('jp' is Japanese, 'ja'); anything unknown is 'und'. */
export function languageTag(code: string | null | undefined): string {
  if (!code) return 'und';
  if (code === 'jp') return 'ja';
  if (code === 'zh') return 'zh-CN';
  return /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(code) ? code : 'und';
}

/** Characters XML 1.0 does not allow (C0 controls other than tab and line ends, lone surrogates, U+FFFE/F). */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- these control characters are exactly what must go
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export const escapeXml = (text: string): string =>
  text.replace(NOT_XML, '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** A bare '&' that does not start one of XML's own entity or character references. */
const BARE_AMPERSAND = /&(?!(?:amp|lt|gt|quot|apos|#\d{1,7}|#x[0-9a-fA-F]{1,6});)/g;

/**
 * Inline markup (the parsers' whitelist, or a stored translation) as well-formed XHTML: void elements
 * closed, attributes quoted, links to notes pointed at the document and id that hold them in this
 * book (`side` says whether they go to the originals or the translations). Markup without tags is
 * escaped text already and only checked for stray ampersands (the common case, and much cheaper).
 */
export function inlineXhtml(html: string, side: 'original' | 'translation', ctx: RenderContext): string {
  if (!html.includes('<')) return html.replace(NOT_XML, '').replace(BARE_AMPERSAND, '&amp;').replace(/>/g, '&gt;');
  return sanitizeHtml(html.replace(NOT_XML, ''), {
    allowedTags: ['em', 'strong', 'i', 'b', 'sup', 'sub', 'ruby', 'rt', 'rp', 'a', 'br', 'span'],
    allowedAttributes: { a: ['href', 'epub:type', 'class'] },
    allowedSchemes: [],
    allowedSchemesAppliedToAttributes: [],
    transformTags: {
      a: (_tag, attribs): sanitizeHtml.Tag => {
        const target = (attribs.href ?? '').startsWith('#') ? attribs.href!.slice(1) : '';
        const file = target ? ctx.fileOf(target) : undefined;
        // A link to something this book does not hold keeps its text and loses the link.
        if (!file) return { tagName: 'span', attribs: {} };
        const id = side === 'translation' ? translationId(target, ctx.mode) : target;
        return { tagName: 'a', attribs: { href: `${file}#${id}`, 'epub:type': 'noteref', class: 'noteref' } };
      },
    },
    parser: { lowerCaseAttributeNames: false },
  });
}

const blockTag = (block: ExportBlock): string => {
  switch (block.type) {
    case 'heading':
      return `h${Math.min(6, Math.max(1, block.level ?? 2))}`;
    case 'quote':
      return 'blockquote';
    case 'table':
      return 'pre';
    default:
      return 'p';
  }
};

/** Back links from a note to every place that refers to it. */
function backLinks(block: ExportBlock, side: 'original' | 'translation', ctx: RenderContext): string {
  return (block.referencedBy ?? [])
    .flatMap((ref) => {
      const file = ctx.fileOf(ref);
      if (!file) return [];
      const id = side === 'translation' ? translationId(ref, ctx.mode) : ref;
      return [` <a class="backlink" href="${file}#${id}">↩</a>`];
    })
    .join('');
}

/** One side of a text block: the original, or its translation (in the target language). */
function textElement(block: ExportBlock, side: 'original' | 'translation', ctx: RenderContext): string {
  const original = side === 'original';
  const inner =
    !original && block.translation !== null
      ? inlineXhtml(block.translation, 'translation', ctx)
      : block.html !== null
        ? inlineXhtml(block.html, 'original', ctx)
        : escapeXml(block.text);
  // Lines of verse (and of any paragraph broken into lines) are lines in the book too.
  const lined = block.type === 'table' ? inner : inner.replace(/\n/g, '<br/>');
  const id = original ? block.blockId : translationId(block.blockId, ctx.mode);
  const label = block.noteLabel ? `<span class="note-label">${escapeXml(block.noteLabel)}</span> ` : '';
  const lang = original ? ctx.originalLang : ctx.targetLang;
  // The document is in the book's language in a bilingual book; translations say what they are in.
  const languageAttributes =
    original || ctx.mode === 'translated'
      ? ''
      : ` xml:lang="${lang}" lang="${lang}"${isRightToLeft(lang) !== isRightToLeft(ctx.originalLang) ? ` dir="${isRightToLeft(lang) ? 'rtl' : 'ltr'}"` : ''}`;
  const classes = [original ? 'orig' : 'tr', block.type === 'listItem' ? 'list-item' : ''].filter(Boolean).join(' ');
  const content = `${label}${lined}${block.type === 'footnote' ? backLinks(block, side, ctx) : ''}`;
  if (block.type === 'footnote')
    return `<div epub:type="footnote" class="note ${classes}" id="${id}"${languageAttributes}><p>${content}</p></div>`;
  const tag = blockTag(block);
  if (tag === 'blockquote')
    return `<blockquote class="${classes}" id="${id}"${languageAttributes}><p>${content}</p></blockquote>`;
  return `<${tag} class="${classes}" id="${id}"${languageAttributes}>${content}</${tag}>`;
}

/**
 * A block as XHTML: in a bilingual book each text block is its original followed by its translation;
 * in a translated book the translation alone. Pictures, code and separators are the same in both.
 */
export function renderBlock(block: ExportBlock, ctx: RenderContext): string {
  switch (block.type) {
    case 'image': {
      // An image block's text is the picture's text alternative (its alt, an SVG's title), not a caption.
      const href = block.imageId ? ctx.imageHref(block.imageId) : undefined;
      if (!href)
        return block.text.trim() ? `<p class="image-missing" id="${block.blockId}">${escapeXml(block.text)}</p>` : '';
      return `<figure class="image" id="${block.blockId}"><img src="${href}" alt="${escapeXml(block.text)}"/></figure>`;
    }
    case 'separator':
      return `<hr id="${block.blockId}"/>`;
    case 'code':
      return `<pre class="code" id="${block.blockId}"><code>${escapeXml(block.text)}</code></pre>`;
  }
  if (!block.translatable) return textElement(block, 'original', ctx);
  if (ctx.mode === 'translated') return textElement(block, 'translation', ctx);
  return `${textElement(block, 'original', ctx)}\n${textElement(block, 'translation', ctx)}`;
}

/**
 * The names of the top-level elements renderBlock writes for a block, in order: what a reading
 * system's path to the block counts (KOReader's XPointers, modules/kosync/xpointer.ts). None for a
 * picture that did not make it into the book and has no caption.
 */
export function renderedElements(block: ExportBlock, ctx: Pick<RenderContext, 'mode' | 'imageHref'>): string[] {
  switch (block.type) {
    case 'image':
      if (block.imageId && ctx.imageHref(block.imageId)) return ['figure'];
      return block.text.trim() ? ['p'] : [];
    case 'separator':
      return ['hr'];
    case 'code':
      return ['pre'];
  }
  const element = block.type === 'footnote' ? 'div' : blockTag(block);
  return block.translatable && ctx.mode === 'bilingual' ? [element, element] : [element];
}

/** A content document: one chapter, or one part of a long chapter. */
export function contentDocument(options: { title: string; lang: string; body: string; stylesheet: string }): string {
  const dir = isRightToLeft(options.lang) ? ' dir="rtl"' : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${options.lang}" lang="${options.lang}"${dir}>
<head>
<title>${escapeXml(options.title)}</title>
<link rel="stylesheet" type="text/css" href="${options.stylesheet}"/>
</head>
<body>
${options.body}
</body>
</html>
`;
}

/** The book's style: translations set apart from the originals they follow, notes smaller. */
export const STYLESHEET = `body { line-height: 1.5; }
p, h1, h2, h3, h4, h5, h6, blockquote, pre { margin: 0.4em 0; }
.orig + .tr { margin-top: 0.15em; }
.tr { color: #2f4f7f; }
.orig + .tr, .orig + .note.tr { border-left: 0.2em solid #c7d3e6; padding-left: 0.6em; }
p.tr + p.orig, .tr + .orig { margin-top: 0.9em; }
h1.tr, h2.tr, h3.tr, h4.tr, h5.tr, h6.tr { font-weight: normal; }
blockquote { margin-left: 1.5em; margin-right: 1.5em; }
pre { white-space: pre-wrap; font-family: inherit; }
pre.code { font-family: monospace; }
.note { font-size: 0.9em; }
.note-label { font-weight: bold; }
a.noteref { vertical-align: super; font-size: 0.75em; line-height: 0; text-decoration: none; }
a.backlink { text-decoration: none; }
figure.image { margin: 1em 0; text-align: center; }
figure.image img { max-width: 100%; height: auto; }
figcaption { font-size: 0.9em; font-style: italic; }
.cover { margin: 0; padding: 0; text-align: center; }
.cover img { max-width: 100%; max-height: 100%; }
`;
