/**
 * The authorisation matrix of the doors e-readers use (the OPDS catalogs and KOReader's progress
 * sync, outside /api): every route × {no login, the owner's device password, another reader's, a
 * revoked one, the account password, a session token}, with the status each must get. A route added
 * under /opds or /kosync without an entry, or an entry without a route, fails the first test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, kosyncHeaders, md5, newDevicePassword } from './device-helpers.ts';
import { bookWithFile } from './ereader-books.ts';
import { registerUser, startTestApp, STRONG_PASSWORD, type TestApp } from './helpers.ts';

const WHO = ['guest', 'owner', 'other', 'revoked', 'accountPassword', 'sessionToken'] as const;
type Who = (typeof WHO)[number];
type Expect = Record<Who, number>;
const E = (guest: number, owner: number, other: number, revoked: number, account: number, session: number): Expect => ({
  guest,
  owner,
  other,
  revoked,
  accountPassword: account,
  sessionToken: session,
});
/** Open to anyone: what a device needs before it logs in. */
const OPEN = E(200, 200, 200, 200, 200, 200);
/** A reader's own catalog: any live device password, nothing else. */
const DEVICE = E(401, 200, 200, 401, 401, 401);
/** The owner's private book: theirs only; another reader is told there is no such book. */
const OWN_BOOK = E(401, 200, 404, 401, 401, 401);

interface Ctx {
  book: string;
  document: string;
}
type Request = { method: 'GET' | 'PUT' | 'POST' | 'HEAD'; url: string; body?: unknown };

const MATRIX: Record<string, { call: (c: Ctx) => Request; expect: Expect }> = {
  'GET /opds': { call: () => ({ method: 'GET', url: '/opds' }), expect: DEVICE },
  'GET /opds/:section': { call: () => ({ method: 'GET', url: '/opds/library' }), expect: DEVICE },
  'GET /opds/public/:section': { call: () => ({ method: 'GET', url: '/opds/public/new' }), expect: DEVICE },
  'GET /opds/v2': { call: () => ({ method: 'GET', url: '/opds/v2' }), expect: DEVICE },
  'GET /opds/v2/:section': { call: () => ({ method: 'GET', url: '/opds/v2/search?query=x' }), expect: DEVICE },
  'GET /opds/v2/public/:section': { call: () => ({ method: 'GET', url: '/opds/v2/public/popular' }), expect: DEVICE },
  'GET /opds/auth': { call: () => ({ method: 'GET', url: '/opds/auth' }), expect: OPEN },
  'GET /opds/search.xml': { call: () => ({ method: 'GET', url: '/opds/search.xml' }), expect: OPEN },
  'GET /opds/books/:code/original': {
    call: (c) => ({ method: 'GET', url: `/opds/books/${c.book}/original` }),
    expect: OWN_BOOK,
  },
  'HEAD /opds/books/:code/original': {
    call: (c) => ({ method: 'HEAD', url: `/opds/books/${c.book}/original` }),
    expect: OWN_BOOK,
  },
  // Nothing is translated for anyone: the owner is told so (409), another reader that there is no such book.
  'GET /opds/books/:code/:mode/:language': {
    call: (c) => ({ method: 'GET', url: `/opds/books/${c.book}/bilingual/zh` }),
    expect: E(401, 409, 404, 401, 401, 401),
  },
  'HEAD /opds/books/:code/:mode/:language': {
    call: (c) => ({ method: 'HEAD', url: `/opds/books/${c.book}/translated/zh` }),
    expect: E(401, 409, 404, 401, 401, 401),
  },
  'GET /kosync/healthcheck': { call: () => ({ method: 'GET', url: '/kosync/healthcheck' }), expect: OPEN },
  // Sign-up is refused to everyone, as KOReader expects when a server does not take registrations.
  'POST /kosync/users/create': {
    call: () => ({ method: 'POST', url: '/kosync/users/create', body: { username: 'x', password: md5('y') } }),
    expect: E(402, 402, 402, 402, 402, 402),
  },
  'GET /kosync/users/auth': { call: () => ({ method: 'GET', url: '/kosync/users/auth' }), expect: DEVICE },
  'PUT /kosync/syncs/progress': {
    call: (c) => ({
      method: 'PUT',
      url: '/kosync/syncs/progress',
      body: { document: c.document, progress: '3', percentage: 0.1, device: 'Kobo', device_id: 'k1' },
    }),
    expect: DEVICE,
  },
  'GET /kosync/syncs/progress/:document': {
    call: (c) => ({ method: 'GET', url: `/kosync/syncs/progress/${c.document}` }),
    expect: DEVICE,
  },
};

/** The routes under /opds and /kosync, from the router's own tree (`METHOD /path/:param`). */
function deviceRoutes(tree: string): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│├└─\s]*)(\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    const path = stack.join('');
    if (!match[3] || !/^\/(opds|kosync)(\/|$)/.test(path)) continue;
    for (const method of match[3].split(', ')) routes.push(`${method} ${path}`);
  }
  return routes;
}

describe('the authorisation matrix of the e-reader doors', () => {
  let t: TestApp;
  let ctx: Ctx;
  const headers: Partial<Record<Who, Record<string, string>>> = {};
  beforeAll(async () => {
    t = await startTestApp({ REQUIRE_INVITE: 'false', EMAIL_ACTIVATION: 'false', RATE_LIMIT_PER_MINUTE: '100000' });
    const owner = await registerUser(t, 'owner');
    const other = await registerUser(t, 'other');
    const mine = await newDevicePassword(t, owner);
    const theirs = await newDevicePassword(t, other);
    const gone = await newDevicePassword(t, owner, 'old');
    await t.call('DELETE', `/api/user/devicePasswords/${gone.id}`, { token: owner });
    ctx = {
      book: await bookWithFile(t, 'owner', { title: 'Private Notes', visibility: 0, pages: [['Only mine.']] }),
      document: md5('a document'),
    };
    const both = (username: string, password: string) => ({
      ...basic(username, password),
      ...kosyncHeaders(username, password),
    });
    headers.owner = both(mine.username, mine.password);
    headers.other = both(theirs.username, theirs.password);
    headers.revoked = both(gone.username, gone.password);
    headers.accountPassword = both('owner', STRONG_PASSWORD);
    headers.sessionToken = { authorization: `Bearer ${owner}`, 'x-auth-user': 'owner', 'x-auth-key': owner };
    headers.guest = {};
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('has an entry for every route under /opds and /kosync, and no entry for a route that does not exist', () => {
    const routes = deviceRoutes(t.app.printRoutes({ commonPrefix: false }));
    expect(routes.length).toBeGreaterThan(10);
    // HEAD of a feed is Fastify's own twin of its GET; downloads declare theirs (checked above).
    const declared = routes.filter(
      (r) => !r.startsWith('HEAD ') || !(`GET ${r.slice(5)}` in MATRIX) || r.includes('/books/'),
    );
    expect(
      declared.filter((r) => !(r in MATRIX)),
      'routes without an entry',
    ).toEqual([]);
    expect(
      Object.keys(MATRIX).filter((r) => !routes.includes(r)),
      'entries for routes that do not exist',
    ).toEqual([]);
  });

  for (const [n, [route, entry]] of Object.entries(MATRIX).entries()) {
    it(route, async () => {
      const got: Partial<Expect> = {};
      for (const [w, who] of WHO.entries()) {
        const request = entry.call(ctx);
        const res = await t.app.inject({
          method: request.method,
          url: request.url,
          // An address per route and caller: the failures and rate limits of one do not decide another's answer.
          remoteAddress: `10.${n + 1}.0.${w + 1}`,
          headers: { ...headers[who], ...(request.body ? { 'content-type': 'application/json' } : {}) },
          ...(request.body ? { payload: JSON.stringify(request.body) } : {}),
        });
        got[who] = res.statusCode;
      }
      expect(got, JSON.stringify(got)).toEqual(entry.expect);
    });
  }
});
