/**
 * Readwise's v2 highlights API (https://readwise.io/api_deets): `Authorization: Token …`,
 * `GET /api/v2/auth/` answers 204 for a good token, `POST /api/v2/highlights/` takes
 * `{highlights: [...]}`; a 429 says in `Retry-After` how many seconds to wait.
 */
export interface ReadwiseHighlight {
  text: string;
  title: string;
  author: string;
  source_type: string;
  category: 'books';
  note: string;
  location: number;
  location_type: 'page';
  highlighted_at: string;
  highlight_url: string;
}

export type PushResult =
  { ok: true } | { ok: false; reason: 'rejected' } | { ok: false; reason: 'rateLimited'; retryAfter: number };

/** Readwise answered what Yidu cannot act on (a server error, a refused body) or did not answer. */
export class ReadwiseUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReadwiseUnavailable';
  }
}

const TIMEOUT_MS = 20_000;

export class ReadwiseClient {
  private readonly baseUrl: string;
  constructor(baseUrl: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  private async call(token: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response> {
    try {
      return await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          Authorization: `Token ${token}`,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new ReadwiseUnavailable(`Readwise did not answer: ${(error as Error).message}`);
    }
  }

  /** Whether Readwise accepts the token (204); a refusal is false, anything else unavailable. */
  async checkToken(token: string): Promise<boolean> {
    const response = await this.call(token, 'GET', '/api/v2/auth/');
    await response.body?.cancel();
    if (response.status === 204 || response.status === 200) return true;
    if (response.status === 401 || response.status === 403) return false;
    throw new ReadwiseUnavailable(`Readwise answered ${response.status} to the token check`);
  }

  async push(token: string, highlights: ReadwiseHighlight[]): Promise<PushResult> {
    const response = await this.call(token, 'POST', '/api/v2/highlights/', { highlights });
    const text = await response.text().catch(() => '');
    if (response.ok) return { ok: true };
    if (response.status === 401 || response.status === 403) return { ok: false, reason: 'rejected' };
    if (response.status === 429) return { ok: false, reason: 'rateLimited', retryAfter: retryAfterSeconds(response) };
    throw new ReadwiseUnavailable(`Readwise answered ${response.status}: ${text.slice(0, 200)}`);
  }
}

/** Retry-After in seconds (a number or an HTTP date); 60 when missing or unreadable. */
function retryAfterSeconds(response: Response): number {
  const value = response.headers.get('retry-after')?.trim() ?? '';
  if (/^\d+$/.test(value)) return Math.max(1, Number(value));
  const date = Date.parse(value);
  if (!Number.isNaN(date)) return Math.max(1, Math.ceil((date - Date.now()) / 1000));
  return 60;
}
