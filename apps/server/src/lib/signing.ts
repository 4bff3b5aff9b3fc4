import { createHmac } from 'node:crypto';
import { safeEqual } from './crypto.ts';

/**
 * Who a media URL was made for, when being its holder is not enough: a reader of a book outside the
 * public library (each request checks that they still have it), or the recipients of a share link
 * (each request checks that the link still holds).
 */
export type MediaGrant = { userId: number; bookId: number } | { shareId: string };

/** The query a signed URL carries. */
export interface SignedQuery {
  exp?: string | undefined;
  user?: string | undefined;
  book?: string | undefined;
  share?: string | undefined;
  sig?: string | undefined;
}

/** A signed URL lives 6 to 7 hours: it ends on the hour, so that within an hour it stays the same URL (and cached). */
export const MEDIA_URL_HOURS = 6;
const HOUR = 3600;

/**
 * Signed media URLs: an <img> cannot send the bearer token, so cover and book-image URLs carry an
 * HMAC, made with the app secret, of their path, their expiry and whom they were made for. Only
 * the server can make one; each names one file, ends after hours (the client gets fresh ones with
 * the lists and pages it fetches anyway), and may name a grant the media route checks again.
 */
export class UrlSigner {
  private readonly secret: string;
  constructor(secret: string) {
    this.secret = secret;
  }

  private mac(pathname: string, expires: number, grant: string): string {
    return createHmac('sha256', this.secret)
      .update(`${pathname}\n${expires}\n${grant}`)
      .digest('base64url')
      .slice(0, 32);
  }

  sign(pathname: string, options: { grant?: MediaGrant | undefined; now?: number } = {}): string {
    const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000);
    const expires = (Math.floor(nowSeconds / HOUR) + MEDIA_URL_HOURS + 1) * HOUR;
    const grant = grantQuery(options.grant);
    return `${pathname}?exp=${expires}${grant ? `&${grant}` : ''}&sig=${this.mac(pathname, expires, grant)}`;
  }

  /** The URL's grant and expiry (seconds since 1970) when its signature holds and it has not expired. */
  verify(
    pathname: string,
    query: SignedQuery,
    now = Date.now(),
  ): { grant: MediaGrant | undefined; expires: number } | undefined {
    const expires = Number(query.exp);
    if (!Number.isSafeInteger(expires) || typeof query.sig !== 'string') return undefined;
    const grant = parseGrant(query);
    if (grant === null) return undefined;
    if (!safeEqual(query.sig, this.mac(pathname, expires, grantQuery(grant)))) return undefined;
    if (expires * 1000 <= now) return undefined;
    return { grant, expires };
  }
}

function grantQuery(grant: MediaGrant | undefined): string {
  if (!grant) return '';
  return 'shareId' in grant
    ? `share=${encodeURIComponent(grant.shareId)}`
    : `user=${grant.userId}&book=${grant.bookId}`;
}

/** The grant a query names; undefined for none, null for one that is malformed. */
function parseGrant(query: SignedQuery): MediaGrant | undefined | null {
  if (query.share !== undefined)
    return query.user === undefined && query.book === undefined ? { shareId: query.share } : null;
  if (query.user === undefined && query.book === undefined) return undefined;
  const userId = Number(query.user);
  const bookId = Number(query.book);
  return Number.isSafeInteger(userId) && Number.isSafeInteger(bookId) ? { userId, bookId } : null;
}
