import type { ByteRange, FileStorage } from '../../engines/storage/storage.ts';
import type { SignedQuery, UrlSigner } from '../../lib/signing.ts';
import type { UsersRepo } from '../users/users.repo.ts';
import type { BooksService } from './books.service.ts';

/** How long a browser may keep a file shown through a grant before it asks again (and the grant is checked). */
const GRANTED_MAX_AGE_SECONDS = 300;

export interface MediaFile {
  key: string;
  /** Seconds the browser may keep the file: until the URL expires, and briefly for a grant. */
  maxAge: number;
  size: number;
  etag: string;
}

/**
 * Opens signed media URLs (covers, book images, avatars, feedback images; see lib/signing.ts): the
 * signature must hold and the URL must not have expired; a URL made for a reader of a book outside
 * the public library, or for the recipients of a share link, is served only while that still holds.
 */
export class MediaService {
  private readonly d: { signer: UrlSigner; storage: FileStorage; books: BooksService; usersRepo: UsersRepo };
  constructor(deps: { signer: UrlSigner; storage: FileStorage; books: BooksService; usersRepo: UsersRepo }) {
    this.d = deps;
  }

  /** The file a signed URL names, or undefined when it may not be served (answered as not found). */
  async open(pathname: string, query: SignedQuery): Promise<MediaFile | undefined> {
    const signed = this.d.signer.verify(pathname, query);
    if (!signed) return undefined;
    const { grant } = signed;
    if (grant && 'shareId' in grant && !(await this.d.books.repo.shareHolds(grant.shareId))) return undefined;
    if (grant && 'userId' in grant) {
      const user = await this.d.usersRepo.findById(grant.userId);
      if (!user || user.status !== 'active' || !(await this.d.books.canRead(user, grant.bookId))) return undefined;
    }
    const key = decodeURIComponent(pathname.slice('/api/media/'.length));
    const stored = await this.d.storage.stat(key);
    if (!stored) return undefined;
    // Whole seconds left, rounded down: the browser never keeps the file past the URL's life.
    const untilExpiry = Math.max(0, Math.floor((signed.expires * 1000 - Date.now()) / 1000));
    return { key, maxAge: grant ? Math.min(untilExpiry, GRANTED_MAX_AGE_SECONDS) : untilExpiry, ...stored };
  }

  stream(key: string, range?: ByteRange) {
    return this.d.storage.stream(key, range);
  }
}
