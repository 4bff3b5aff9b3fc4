import { escapeXml } from '../export/epub-content.ts';
import {
  ATOM_ACQUISITION,
  ATOM_NAVIGATION,
  bookId,
  feedId,
  feedPath,
  type Acquisition,
  type Feed,
  type FeedKey,
  type NavigationItem,
  type Publication,
} from './catalog.ts';

/**
 * OPDS 1.2 (Atom) catalogs: navigation feeds of subsections and acquisition feeds of books, with
 * first/previous/next/last paging, the OpenSearch description of search, and a link to it on every
 * feed. Validated against the official RELAX NG schema in the tests (opds.test.ts).
 */

const OPENSEARCH_TYPE = 'application/opensearchdescription+xml';

/** Where a feed goes up to: the public sections to the public library, the rest to the root. */
const PARENT: Partial<Record<FeedKey, FeedKey>> = {
  'public/new': 'public',
  'public/popular': 'public',
  'public/recommended': 'public',
};

const link = (rel: string, href: string, type: string, extra = '') =>
  `  <link rel="${rel}" href="${escapeXml(href)}" type="${type}"${extra}/>`;

const stamp = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

export function atomFeed(feed: Feed, base: string, author: string): string {
  const abs = (path: string) => `${base}${path}`;
  const kind = feed.navigation ? ATOM_NAVIGATION : ATOM_ACQUISITION;
  const self = feedPath(1, feed.key, { page: feed.page?.number, query: feed.query });
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/terms/" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">',
    `  <id>${feedId(feed.key)}${feed.query !== undefined ? `:${escapeXml(encodeURIComponent(feed.query))}` : ''}</id>`,
    `  <title>${escapeXml(feed.title)}</title>`,
    `  <updated>${stamp(feed.updated)}</updated>`,
    `  <author><name>${escapeXml(author)}</name><uri>${escapeXml(abs('/'))}</uri></author>`,
    link('self', abs(self), kind),
    link('start', abs(feedPath(1, 'root')), ATOM_NAVIGATION),
  ];
  if (feed.key !== 'root') lines.push(link('up', abs(feedPath(1, PARENT[feed.key] ?? 'root')), ATOM_NAVIGATION));
  lines.push(link('search', abs('/opds/search.xml'), OPENSEARCH_TYPE));
  if (feed.page) {
    const { number, size, total } = feed.page;
    const last = Math.max(1, Math.ceil(total / size));
    const page = (n: number) => abs(feedPath(1, feed.key, { page: n, query: feed.query }));
    lines.push(link('first', page(1), kind));
    if (number > 1) lines.push(link('previous', page(Math.min(number - 1, last)), kind));
    if (number < last) lines.push(link('next', page(number + 1), kind));
    lines.push(link('last', page(last), kind));
    lines.push(`  <opensearch:totalResults>${total}</opensearch:totalResults>`);
    lines.push(`  <opensearch:itemsPerPage>${size}</opensearch:itemsPerPage>`);
    lines.push(`  <opensearch:startIndex>${(number - 1) * size + 1}</opensearch:startIndex>`);
  }
  for (const item of feed.navigation ?? []) lines.push(navigationEntry(item, abs, feed.updated));
  for (const publication of feed.publications ?? []) lines.push(publicationEntry(publication, abs));
  lines.push('</feed>', '');
  return lines.join('\n');
}

function navigationEntry(item: NavigationItem, abs: (path: string) => string, updated: Date): string {
  return [
    '  <entry>',
    `    <title>${escapeXml(item.title)}</title>`,
    `    <id>${feedId(item.key)}</id>`,
    `    <updated>${stamp(updated)}</updated>`,
    `    <content type="text">${escapeXml(item.summary)}</content>`,
    `  ${link('subsection', abs(feedPath(1, item.key)), item.acquisition ? ATOM_ACQUISITION : ATOM_NAVIGATION)}`,
    '  </entry>',
  ].join('\n');
}

function publicationEntry(publication: Publication, abs: (path: string) => string): string {
  const summary = [publication.note, publication.description].filter(Boolean).join('\n\n');
  const lines = [
    '  <entry>',
    `    <title>${escapeXml(publication.title)}</title>`,
    `    <id>${bookId(publication.code)}</id>`,
    `    <updated>${stamp(publication.updated)}</updated>`,
    `    <author><name>${escapeXml(publication.author)}</name></author>`,
  ];
  if (publication.language) lines.push(`    <dc:language>${publication.language}</dc:language>`);
  if (summary) lines.push(`    <summary type="text">${escapeXml(summary)}</summary>`);
  if (publication.cover) lines.push(`  ${link('http://opds-spec.org/image', abs(publication.cover), 'image/jpeg')}`);
  if (publication.thumbnail)
    lines.push(`  ${link('http://opds-spec.org/image/thumbnail', abs(publication.thumbnail), 'image/jpeg')}`);
  for (const acquisition of publication.acquisitions) lines.push(`  ${acquisitionLink(acquisition, abs)}`);
  lines.push('  </entry>');
  return lines.join('\n');
}

function acquisitionLink(acquisition: Acquisition, abs: (path: string) => string): string {
  const length = acquisition.size ? ` length="${acquisition.size}"` : '';
  return link(
    'http://opds-spec.org/acquisition',
    abs(acquisition.href),
    acquisition.type,
    ` title="${escapeXml(acquisition.title)}"${length}`,
  );
}

/** The OpenSearch description of the catalog's search (OPDS 1.2 §3.3). */
export function openSearchDescription(base: string, name: string, description: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">
  <ShortName>${escapeXml(name.slice(0, 16))}</ShortName>
  <Description>${escapeXml(description)}</Description>
  <InputEncoding>UTF-8</InputEncoding>
  <OutputEncoding>UTF-8</OutputEncoding>
  <Url type="${ATOM_ACQUISITION}" template="${escapeXml(`${base}/opds/search?q={searchTerms}`)}"/>
</OpenSearchDescription>
`;
}
