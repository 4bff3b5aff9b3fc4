import {
  bookId,
  feedPath,
  OPDS2_FEED,
  type Acquisition,
  type Feed,
  type FeedKey,
  type NavigationItem,
  type Publication,
} from './catalog.ts';

/**
 * OPDS 2.0 (JSON) catalogs from the same model as the Atom ones, with templated search
 * (`/opds/v2/search{?query}`) and paging in the feed's metadata. Validated against the official
 * JSON Schemas (with Readium's Web Publication Manifest schemas they build on) in opds.test.ts.
 */

interface Link {
  rel?: string;
  href: string;
  type?: string;
  title?: string;
  templated?: boolean;
  size?: number;
}

const PARENT: Partial<Record<FeedKey, FeedKey>> = {
  'public/new': 'public',
  'public/popular': 'public',
  'public/recommended': 'public',
};

const stamp = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

export function opds2Feed(feed: Feed, base: string): Record<string, unknown> {
  const abs = (path: string) => `${base}${path}`;
  const links: Link[] = [
    { rel: 'self', href: abs(feedPath(2, feed.key, { page: feed.page?.number, query: feed.query })), type: OPDS2_FEED },
    { rel: 'start', href: abs(feedPath(2, 'root')), type: OPDS2_FEED },
  ];
  if (feed.key !== 'root')
    links.push({ rel: 'up', href: abs(feedPath(2, PARENT[feed.key] ?? 'root')), type: OPDS2_FEED });
  links.push({ rel: 'search', href: abs('/opds/v2/search{?query}'), type: OPDS2_FEED, templated: true });
  const metadata: Record<string, unknown> = { title: feed.title, modified: stamp(feed.updated) };
  if (feed.page) {
    const { number, size, total } = feed.page;
    const last = Math.max(1, Math.ceil(total / size));
    const page = (n: number) => abs(feedPath(2, feed.key, { page: n, query: feed.query }));
    links.push({ rel: 'first', href: page(1), type: OPDS2_FEED });
    if (number > 1) links.push({ rel: 'previous', href: page(Math.min(number - 1, last)), type: OPDS2_FEED });
    if (number < last) links.push({ rel: 'next', href: page(number + 1), type: OPDS2_FEED });
    links.push({ rel: 'last', href: page(last), type: OPDS2_FEED });
    Object.assign(metadata, { numberOfItems: total, itemsPerPage: size, currentPage: number });
  }
  const document: Record<string, unknown> = { metadata, links };
  const navigation = feed.navigation ?? (feed.empty && !feed.publications?.length ? [feed.empty] : []);
  if (navigation.length > 0) document.navigation = navigation.map((item) => navigationLink(item, abs));
  if (feed.publications?.length) document.publications = feed.publications.map((p) => publication(p, abs));
  return document;
}

function navigationLink(item: NavigationItem, abs: (path: string) => string): Link {
  return { href: abs(feedPath(2, item.key)), title: item.title, type: OPDS2_FEED, rel: 'subsection' };
}

function publication(publication: Publication, abs: (path: string) => string): Record<string, unknown> {
  const description = [publication.note, publication.description].filter(Boolean).join('\n\n');
  const metadata: Record<string, unknown> = {
    '@type': 'http://schema.org/Book',
    identifier: bookId(publication.code),
    title: publication.title,
    author: { name: publication.author },
    modified: stamp(publication.updated),
  };
  if (publication.language) metadata.language = publication.language;
  if (description) metadata.description = description;
  const result: Record<string, unknown> = {
    metadata,
    links: publication.acquisitions.map((a) => acquisitionLink(a, abs)),
  };
  const images: Link[] = [];
  if (publication.cover) images.push({ href: abs(publication.cover), type: 'image/jpeg' });
  if (publication.thumbnail) images.push({ href: abs(publication.thumbnail), type: 'image/jpeg', rel: 'thumbnail' });
  if (images.length > 0) result.images = images;
  return result;
}

function acquisitionLink(acquisition: Acquisition, abs: (path: string) => string): Link {
  return {
    rel: 'http://opds-spec.org/acquisition',
    href: abs(acquisition.href),
    type: acquisition.type,
    title: acquisition.title,
    ...(acquisition.size ? { size: acquisition.size } : {}),
  };
}

/**
 * The Authentication for OPDS document (application/opds-authentication+json), answered with every
 * 401 and at /opds/auth: HTTP Basic with the account name and a device password.
 */
export function authenticationDocument(
  base: string,
  words: { title: string; description: string; login: string; password: string },
): Record<string, unknown> {
  return {
    id: `${base}/opds/auth`,
    title: words.title,
    description: words.description,
    authentication: [
      { type: 'http://opds-spec.org/auth/basic', labels: { login: words.login, password: words.password } },
    ],
    links: [
      { rel: 'help', href: `${base}/devices`, type: 'text/html' },
      { rel: 'register', href: `${base}/register`, type: 'text/html' },
    ],
  };
}
