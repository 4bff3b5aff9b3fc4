/**
 * The catalogs as one model, written out as OPDS 1.2 (Atom, atom.ts) and OPDS 2.0 (JSON, opds2.ts).
 * Every href in the model is a path on this server; the writers make it absolute.
 */

/** The feeds of the catalog. */
export const FEED_KEYS = [
  'root',
  'continue',
  'library',
  'recent',
  'public',
  'public/new',
  'public/popular',
  'public/recommended',
  'search',
] as const;
export type FeedKey = (typeof FEED_KEYS)[number];

export const PAGE_SIZE = 20;

export const ATOM_NAVIGATION = 'application/atom+xml;profile=opds-catalog;kind=navigation';
export const ATOM_ACQUISITION = 'application/atom+xml;profile=opds-catalog;kind=acquisition';
export const OPDS2_FEED = 'application/opds+json';
export const OPDS_AUTHENTICATION = 'application/opds-authentication+json';

/** The media type of each stored format, for acquisition links and downloads. */
export const FORMAT_TYPES: Record<string, string> = {
  epub: 'application/epub+zip',
  pdf: 'application/pdf',
  txt: 'text/plain',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  doc: 'application/msword',
};

export interface NavigationItem {
  key: FeedKey;
  title: string;
  summary: string;
  /** An acquisition feed (books) rather than another navigation feed. */
  acquisition: boolean;
}

export interface Acquisition {
  href: string;
  type: string;
  title: string;
  /** Bytes, when known (an original; an export of the same content already sent). */
  size?: number;
}

export interface Publication {
  code: string;
  title: string;
  author: string;
  /** BCP 47. */
  language?: string;
  description: string;
  /** A line about the reader's progress (Continue reading). */
  note?: string;
  updated: Date;
  cover?: string;
  thumbnail?: string;
  acquisitions: Acquisition[];
}

export interface Feed {
  key: FeedKey;
  title: string;
  updated: Date;
  navigation?: NavigationItem[];
  publications?: Publication[];
  /** Paging of an acquisition feed. */
  page?: { number: number; size: number; total: number };
  /** The words searched for. */
  query?: string;
  /** A navigation entry offered when an acquisition feed is empty (OPDS 2.0 needs something in a feed). */
  empty?: NavigationItem;
}

export type Version = 1 | 2;

/** The path of a feed in a version of the catalog, with its page and search words. */
export function feedPath(version: Version, key: FeedKey, params: { page?: number; query?: string } = {}): string {
  const root = version === 1 ? '/opds' : '/opds/v2';
  const path = key === 'root' ? root : `${root}/${key}`;
  const search = new URLSearchParams();
  if (params.query !== undefined) search.set(version === 1 ? 'q' : 'query', params.query);
  if (params.page !== undefined && params.page > 1) search.set('page', String(params.page));
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

export const bookId = (code: string) => `urn:yidu:book:${code}`;
export const feedId = (key: FeedKey) => `urn:yidu:opds:${key}`;
