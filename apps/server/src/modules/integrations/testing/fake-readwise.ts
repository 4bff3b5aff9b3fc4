/**
 * A local stand-in for Readwise's v2 highlights API (https://readwise.io/api_deets), on 127.0.0.1:
 * `Authorization: Token …` on every call; `GET /api/v2/auth/` answers 204 for a known token and 401
 * otherwise; `POST /api/v2/highlights/` takes `{highlights: [...]}`, checks each field as Readwise
 * documents it (text required, at most 8191 characters; title 511; author 1024; location an integer;
 * location_type page, order or time_offset) and answers 400 with the field errors, or 200 with the
 * books the highlights went to. A rate limit can be switched on: 429 with `Retry-After`.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHighlight {
  text: string;
  title?: string;
  author?: string;
  note?: string;
  location?: number;
  location_type?: string;
  highlighted_at?: string;
  highlight_url?: string;
  source_type?: string;
  category?: string;
}

export interface FakeReadwise {
  url: string;
  /** Tokens Readwise accepts. */
  tokens: Set<string>;
  /** Every highlight accepted, with when its request arrived and under which token. */
  received: { at: number; token: string; highlight: ReceivedHighlight }[];
  /** Every POST to the highlights endpoint, with its status. */
  posts: { at: number; status: number; count: number }[];
  /** The next `count` highlight POSTs answer 429 with this Retry-After. */
  rateLimit(count: number, retryAfterSeconds: number): void;
  close(): Promise<void>;
}

const LOCATION_TYPES = new Set(['page', 'order', 'time_offset']);

function fieldErrors(h: Record<string, unknown>): string[] {
  const errors: string[] = [];
  if (typeof h.text !== 'string' || h.text.length === 0) errors.push('text: This field is required.');
  else if (h.text.length > 8191) errors.push('text: Ensure this field has no more than 8191 characters.');
  if (h.title !== undefined && (typeof h.title !== 'string' || h.title.length > 511)) errors.push('title: invalid');
  if (h.author !== undefined && (typeof h.author !== 'string' || h.author.length > 1024))
    errors.push('author: invalid');
  if (h.note !== undefined && (typeof h.note !== 'string' || h.note.length > 8191)) errors.push('note: invalid');
  if (h.location !== undefined && !Number.isInteger(h.location)) errors.push('location: A valid integer is required.');
  if (h.location_type !== undefined && !LOCATION_TYPES.has(String(h.location_type)))
    errors.push('location_type: invalid choice');
  if (h.highlight_url !== undefined && (typeof h.highlight_url !== 'string' || h.highlight_url.length > 4095))
    errors.push('highlight_url: invalid');
  if (h.highlighted_at !== undefined && Number.isNaN(Date.parse(String(h.highlighted_at))))
    errors.push('highlighted_at: invalid datetime');
  return errors;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeReadwise(): Promise<FakeReadwise> {
  const tokens = new Set<string>();
  const received: FakeReadwise['received'] = [];
  const posts: FakeReadwise['posts'] = [];
  let limited = 0;
  let retryAfter = 1;

  const server = createServer((request, response) => {
    void (async () => {
      const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
        response.writeHead(status, {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        });
        response.end(body === undefined ? undefined : JSON.stringify(body));
      };
      const auth = /^Token (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      const url = request.url ?? '';
      const body = await readBody(request);
      if (!auth || !tokens.has(auth)) return send(401, { detail: 'Invalid token.' });
      if (request.method === 'GET' && url === '/api/v2/auth/') return send(204);
      if (request.method !== 'POST' || url !== '/api/v2/highlights/') return send(404, { detail: 'Not found.' });
      const at = Date.now();
      if (limited > 0) {
        limited -= 1;
        posts.push({ at, status: 429, count: 0 });
        return send(
          429,
          { detail: `Request was throttled. Expected available in ${retryAfter} seconds.` },
          {
            'retry-after': String(retryAfter),
          },
        );
      }
      let parsed: { highlights?: unknown };
      try {
        parsed = JSON.parse(body) as { highlights?: unknown };
      } catch {
        posts.push({ at, status: 400, count: 0 });
        return send(400, { detail: 'JSON parse error' });
      }
      if (!Array.isArray(parsed.highlights)) {
        posts.push({ at, status: 400, count: 0 });
        return send(400, { highlights: ['This field is required.'] });
      }
      const errors = parsed.highlights.map((h) => fieldErrors(h as Record<string, unknown>));
      if (errors.some((e) => e.length > 0)) {
        posts.push({ at, status: 400, count: 0 });
        return send(400, errors);
      }
      for (const h of parsed.highlights) received.push({ at, token: auth, highlight: h as ReceivedHighlight });
      posts.push({ at, status: 200, count: parsed.highlights.length });
      const books = new Map<string, ReceivedHighlight[]>();
      for (const h of parsed.highlights as ReceivedHighlight[])
        books.set(h.title ?? '', [...(books.get(h.title ?? '') ?? []), h]);
      send(
        200,
        [...books].map(([title, list], i) => ({
          id: i + 1,
          title,
          author: list[0]?.author ?? '',
          category: 'books',
          source: list[0]?.source_type ?? '',
          num_highlights: list.length,
          modified_highlights: list.map((_, j) => j + 1),
        })),
      );
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tokens,
    received,
    posts,
    rateLimit(count, seconds) {
      limited = count;
      retryAfter = seconds;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
