import { createHash } from 'node:crypto';
import { escapeXml, isRightToLeft } from './epub-content.ts';

/** A file of the package, as the manifest lists it (href relative to the package document). */
export interface ManifestItem {
  id: string;
  href: string;
  mediaType: string;
  properties?: string;
}

/** A table-of-contents entry at its depth, pointing at a content document (and the block in it). */
export interface TocEntry {
  label: string;
  href: string;
  level: number;
}

export interface PackageMetadata {
  identifier: string;
  title: string;
  author: string;
  description: string;
  /** BCP 47 tags, the main language first (a bilingual book declares both). */
  languages: string[];
  modified: Date;
  coverImageId?: string;
}

export const CONTAINER_XML = `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles>
    <rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
  </rootfiles>
</container>
`;

/** A stable `urn:uuid:` for an export (same book, language and mode: same identifier), shaped as a UUID v5. */
export function exportIdentifier(...parts: string[]): string {
  const hash = createHash('sha1').update(parts.join('\u0000')).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `dcterms:modified` wants whole seconds in UTC. */
const modifiedStamp = (date: Date) => `${date.toISOString().slice(0, 19)}Z`;

/** The package document (OPF): metadata, every file, the reading order, and the NCX for older readers. */
export function packageDocument(
  meta: PackageMetadata,
  manifest: ManifestItem[],
  spine: { idref: string; linear?: boolean }[],
): string {
  const lang = meta.languages[0]!;
  const items = manifest
    .map(
      (i) =>
        `    <item id="${i.id}" href="${escapeXml(i.href)}" media-type="${i.mediaType}"${i.properties ? ` properties="${i.properties}"` : ''}/>`,
    )
    .join('\n');
  const refs = spine
    .map((s) => `    <itemref idref="${s.idref}"${s.linear === false ? ' linear="no"' : ''}/>`)
    .join('\n');
  const direction = isRightToLeft(lang) ? ' page-progression-direction="rtl"' : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="${lang}">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="book-id">${meta.identifier}</dc:identifier>
    <dc:title>${escapeXml(meta.title) || 'Untitled'}</dc:title>
${meta.author ? `    <dc:creator>${escapeXml(meta.author)}</dc:creator>\n` : ''}${meta.languages.map((l) => `    <dc:language>${l}</dc:language>`).join('\n')}
${meta.description ? `    <dc:description>${escapeXml(meta.description)}</dc:description>\n` : ''}    <meta property="dcterms:modified">${modifiedStamp(meta.modified)}</meta>
${meta.coverImageId ? `    <meta name="cover" content="${meta.coverImageId}"/>\n` : ''}  </metadata>
  <manifest>
${items}
  </manifest>
  <spine toc="ncx"${direction}>
${refs}
  </spine>
</package>
`;
}

interface TocNode {
  entry: TocEntry;
  children: TocNode[];
}

/** Chapters as a tree by their levels; a level deeper than one below its parent counts as one below. */
function tocTree(entries: TocEntry[]): TocNode[] {
  const roots: TocNode[] = [];
  const stack: TocNode[] = [];
  for (const entry of entries) {
    const node: TocNode = { entry, children: [] };
    const level = Math.max(1, Math.min(entry.level, stack.length + 1));
    stack.length = level - 1;
    (stack.length === 0 ? roots : stack[stack.length - 1]!.children).push(node);
    stack.push(node);
  }
  return roots;
}

const depthOf = (nodes: TocNode[]): number => nodes.reduce((d, n) => Math.max(d, 1 + depthOf(n.children)), 0);

/** The EPUB 3 navigation document: the table of contents as nested lists (hrefs relative to it). */
export function navigationDocument(options: { title: string; lang: string; heading: string; toc: TocEntry[] }): string {
  const list = (nodes: TocNode[], indent: string): string =>
    `${indent}<ol>\n${nodes
      .map(
        (n) =>
          `${indent}  <li><a href="${escapeXml(n.entry.href)}">${escapeXml(n.entry.label)}</a>${
            n.children.length > 0 ? `\n${list(n.children, `${indent}    `)}\n${indent}  ` : ''
          }</li>`,
      )
      .join('\n')}\n${indent}</ol>`;
  const dir = isRightToLeft(options.lang) ? ' dir="rtl"' : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${options.lang}" lang="${options.lang}"${dir}>
<head>
<title>${escapeXml(options.title)}</title>
</head>
<body>
<nav epub:type="toc" id="toc">
<h1>${escapeXml(options.heading)}</h1>
${list(tocTree(options.toc), '')}
</nav>
</body>
</html>
`;
}

/**
 * The NCX table of contents of EPUB 2, which older reading systems still read instead of the nav.
 * Each navPoint has an id of its own; playOrder counts the places the entries lead to, in the order
 * they first appear, with no gaps, and entries leading to the same place share theirs (NCX 2005-1).
 */
export function ncxDocument(options: { identifier: string; title: string; lang: string; toc: TocEntry[] }): string {
  const tree = tocTree(options.toc);
  let point = 0;
  const playOrder = new Map<string, number>();
  const points = (nodes: TocNode[], indent: string): string =>
    nodes
      .map((n) => {
        point += 1;
        const id = `nav-${point}`;
        let order = playOrder.get(n.entry.href);
        if (order === undefined) {
          order = playOrder.size + 1;
          playOrder.set(n.entry.href, order);
        }
        const children = n.children.length > 0 ? `\n${points(n.children, `${indent}  `)}` : '';
        return `${indent}<navPoint id="${id}" playOrder="${order}">
${indent}  <navLabel><text>${escapeXml(n.entry.label)}</text></navLabel>
${indent}  <content src="${escapeXml(n.entry.href)}"/>${children}
${indent}</navPoint>`;
      })
      .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1" xml:lang="${options.lang}">
  <head>
    <meta name="dtb:uid" content="${options.identifier}"/>
    <meta name="dtb:depth" content="${Math.max(1, depthOf(tree))}"/>
    <meta name="dtb:totalPageCount" content="0"/>
    <meta name="dtb:maxPageNumber" content="0"/>
  </head>
  <docTitle><text>${escapeXml(options.title)}</text></docTitle>
  <navMap>
${points(tree, '    ')}
  </navMap>
</ncx>
`;
}

/** The cover as the first page: the picture alone, scaled to the screen. */
export function coverDocument(options: { title: string; lang: string; image: string; stylesheet: string }): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${options.lang}" lang="${options.lang}">
<head>
<title>${escapeXml(options.title)}</title>
<link rel="stylesheet" type="text/css" href="${options.stylesheet}"/>
</head>
<body class="cover">
<section epub:type="cover"><img src="${options.image}" alt="${escapeXml(options.title)}"/></section>
</body>
</html>
`;
}
