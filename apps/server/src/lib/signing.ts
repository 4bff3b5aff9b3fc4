import { createHmac } from 'node:crypto';
import { safeEqual } from './crypto.ts';

/**
 * Signed media URLs: an <img> cannot send the bearer token, so cover and book-image URLs carry an
 * HMAC of their path made with the app secret. Only the server can make one; each names one file.
 */
export class UrlSigner {
  private readonly secret: string;
  constructor(secret: string) {
    this.secret = secret;
  }

  private mac(pathname: string): string {
    return createHmac('sha256', this.secret).update(pathname).digest('base64url').slice(0, 32);
  }

  sign(pathname: string): string {
    return `${pathname}?sig=${this.mac(pathname)}`;
  }

  verify(pathname: string, signature: string | undefined): boolean {
    return typeof signature === 'string' && safeEqual(signature, this.mac(pathname));
  }
}
