/**
 * URLs of the services an admin points Yidu at (translation engines, AI models). A stored API key
 * belongs to one origin: the server sends it nowhere else, and the settings pages say so.
 */

/** A URL's origin (scheme, host, port), or null for none or one that does not parse. */
export function originOf(url: string | null | undefined): string | null {
  try {
    return url ? new URL(url).origin : null;
  } catch {
    return null;
  }
}

export function isHttpUrl(url: string): boolean {
  try {
    return /^https?:$/.test(new URL(url).protocol);
  } catch {
    return false;
  }
}
