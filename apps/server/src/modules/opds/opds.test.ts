import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import JSZip from 'jszip';
import { startFakeMicrosoft, type FakeMicrosoft } from '../../engines/translation/testing/fake-servers.ts';
import { registerUser, startTestApp, type TestApp } from '../../../test/helpers.ts';
import { basic, newDevicePassword } from '../../../test/device-helpers.ts';
import { opds2Validator, validateAtom } from '../../../test/opds-validators.ts';
import { bookWithFile, readPages } from '../../../test/ereader-books.ts';

type Headers = Record<string, string>;

interface Fetched {
  path: string;
  type: string;
  body: string;
}

/** A link of an Atom document: its attributes. */
function atomLinks(xml: string): Record<string, string>[] {
  return [...xml.matchAll(/<link\b([^>]*?)\/?>/g)].map((m) =>
    Object.fromEntries([...m[1]!.matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1]!, unescape(a[2]!)])),
  );
}
const unescape = (text: string) =>
  text.replace(/&(amp|lt|gt|quot);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"' })[e]!);

/**
 * Walks a whole catalog as a device would: from the root, every navigation and paging link, and the
 * search (OpenSearch in 1.2, the templated link in 2.0) with each of the words. Returns every feed.
 */
async function walk(t: TestApp, headers: Headers, version: 1 | 2, words: string[]): Promise<Fetched[]> {
  const base = 'http://localhost:80';
  const pathOf = (href: string) => (href.startsWith(base) ? href.slice(base.length) : href);
  const queue = [version === 1 ? '/opds' : '/opds/v2'];
  const seen = new Set(queue);
  const feeds: Fetched[] = [];
  const follow = (href: string) => {
    const next = pathOf(href);
    if (next.startsWith('/opds') && !next.startsWith('/opds/books/') && !seen.has(next)) {
      seen.add(next);
      queue.push(next);
    }
  };
  while (queue.length > 0) {
    const path = queue.shift()!;
    const res = await t.app.inject({ url: path, headers });
    expect(res.statusCode, path).toBe(200);
    expect(res.headers['cache-control'], path).toBe('no-store');
    const type = String(res.headers['content-type']);
    feeds.push({ path, type, body: res.body });
    if (version === 1) {
      expect(type, path).toMatch(/^application\/atom\+xml;profile=opds-catalog;kind=(navigation|acquisition)/);
      for (const link of atomLinks(res.body)) {
        if (link.type?.includes('profile=opds-catalog')) follow(link.href!);
        if (link.rel === 'search' && link.type === 'application/opensearchdescription+xml') {
          const description = await t.app.inject({ url: pathOf(link.href!) });
          const template = /template="([^"]+)"/.exec(description.body)![1]!;
          for (const word of words) follow(unescape(template).replace('{searchTerms}', encodeURIComponent(word)));
        }
      }
    } else {
      expect(type, path).toMatch(/^application\/opds\+json/);
      const feed = JSON.parse(res.body) as {
        links: { href: string; templated?: boolean; rel?: string }[];
        navigation?: { href: string }[];
      };
      for (const link of [...feed.links, ...(feed.navigation ?? [])]) {
        if ('templated' in link && link.templated) {
          for (const word of words) follow(link.href.replace('{?query}', `?query=${encodeURIComponent(word)}`));
        } else follow(link.href);
      }
    }
  }
  return feeds;
}

/** The book codes a feed offers. */
const codesIn = (feed: Fetched): string[] => [...feed.body.matchAll(/urn:yidu:book:([a-z0-9]+)/g)].map((m) => m[1]!);

describe('the OPDS catalogs', () => {
  let t: TestApp;
  let fake: FakeMicrosoft;
  let alice: Headers;
  let bob: Headers;
  let carol: Headers;
  let aliceToken: string;
  let carolToken: string;
  let secret: string;
  let translated: string;
  let halfRead: string;
  let shared: string;
  let shareId: string;
  const volumes: string[] = [];
  beforeAll(async () => {
    fake = await startFakeMicrosoft();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      MICROSOFT_TRANSLATOR_ENDPOINT: fake.url,
      RATE_LIMIT_PER_MINUTE: '100000',
      STARTING_POINTS: '100000',
    });
    aliceToken = await registerUser(t, 'alice');
    const bobToken = await registerUser(t, 'bob');
    carolToken = await registerUser(t, 'carol');
    // 23 public books and a private one: more than a page (20) of alice's library.
    for (let i = 1; i <= 23; i += 1)
      volumes.push(
        await bookWithFile(t, 'alice', {
          title: `Volume ${i} of the Chronicles`,
          pages: [[`Page one of volume ${i}.`]],
        }),
      );
    secret = await bookWithFile(t, 'alice', {
      title: 'Secret Diary',
      visibility: 0,
      pages: [['Dear diary, nobody reads this.']],
    });
    translated = await bookWithFile(t, 'alice', {
      title: 'A Translated Tale',
      visibility: 0,
      pages: [['Once upon a time there was a reader.', 'She read every day.'], ['And then the book ended.']],
    });
    halfRead = await bookWithFile(t, 'alice', {
      title: 'A Half-read Story',
      visibility: 0,
      pages: [['The first page is read.'], ['The second page is not.', 'Nor is this paragraph.']],
    });
    shared = await bookWithFile(t, 'alice', {
      title: 'Shared Letters',
      visibility: 0,
      pages: [['A letter for Carol.']],
    });
    // Alice reads the whole of one book in Chinese, and half of another: both are charged to her.
    await readPages(t, aliceToken, translated, 'zh', [1, 2]);
    await readPages(t, aliceToken, halfRead, 'zh', [1]);
    await t.call('PUT', '/api/reader/position', {
      token: aliceToken,
      body: { bookCode: translated, page: 2, language: 'zh' },
    });
    const share = await t.call('POST', '/api/book/share/create', {
      token: aliceToken,
      body: { bookCode: shared, features: ['explanation'] },
    });
    shareId = share.data.id;
    await t.call('PUT', `/api/book/share/accept/${shareId}`, { token: carolToken });

    const device = async (token: string) => {
      const made = await newDevicePassword(t, token);
      return basic(made.username, made.password);
    };
    alice = await device(aliceToken);
    bob = await device(bobToken);
    carol = await device(carolToken);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('answers a device without a login with the authentication document', async () => {
    for (const url of ['/opds', '/opds/v2/library', `/opds/books/${volumes[0]}/original`]) {
      const res = await t.app.inject({ url, headers: { 'accept-language': 'en' } });
      expect(res.statusCode, url).toBe(401);
      expect(res.headers['content-type']).toContain('application/opds-authentication+json');
      expect(res.headers['www-authenticate']).toBe('Basic realm="Yidu", charset="UTF-8"');
      const document = res.json();
      expect(document).toMatchObject({
        id: 'http://localhost:80/opds/auth',
        title: expect.any(String),
        authentication: [
          { type: 'http://opds-spec.org/auth/basic', labels: { login: 'Account', password: 'Device password' } },
        ],
      });
      expect(document.links).toContainEqual({ rel: 'help', href: 'http://localhost:80/devices', type: 'text/html' });
    }
    const zh = await t.app.inject({ url: '/opds/auth', headers: { 'accept-language': 'zh-CN,zh;q=0.9' } });
    expect(zh.json().authentication[0].labels).toEqual({ login: '账号', password: '设备密码' });
  });

  it('has validators that refuse what the official schemas refuse', async () => {
    const feed = (await t.app.inject({ url: '/opds/library', headers: alice })).body;
    expect(await validateAtom([{ name: 'valid', xml: feed }])).toEqual([]);
    // An entry without its id, and an acquisition link without a type, are not OPDS.
    const broken = feed.replace(/<id>urn:yidu:book:[^<]*<\/id>/, '').replace(/ type="text\/plain"/, '');
    expect(await validateAtom([{ name: 'broken', xml: broken }])).not.toEqual([]);
    const validate = await opds2Validator();
    const json = JSON.parse((await t.app.inject({ url: '/opds/v2/library', headers: alice })).body);
    expect(validate(json)).toEqual([]);
    expect(
      validate({ ...json, publications: [{ metadata: { title: 'x' }, links: [{ href: '/a', rel: 'self' }] }] }),
    ).not.toEqual([]);
  });

  it('walks the whole 1.2 catalog of each reader, paging and search included, every feed valid for the RELAX NG schema', async () => {
    const words = ['Volume', 'Secret', 'Letters', 'nothing-matches-this'];
    const walks = {
      alice: await walk(t, alice, 1, words),
      bob: await walk(t, bob, 1, words),
      carol: await walk(t, carol, 1, words),
    };
    const all = Object.entries(walks).flatMap(([who, feeds]) =>
      feeds.map((f) => ({ name: `${who}${f.path}`, xml: f.body })),
    );
    expect(all.length).toBeGreaterThan(30);
    expect(await validateAtom(all)).toEqual([]);

    // Paging: alice's library is 27 books, 20 a page, every one of them listed once.
    const library = walks.alice.filter((f) => f.path.startsWith('/opds/library'));
    expect(library.map((f) => f.path).sort()).toEqual(['/opds/library', '/opds/library?page=2']);
    const listed = library.flatMap(codesIn);
    expect(new Set(listed).size).toBe(27);
    expect(listed).toHaveLength(27);
    expect(library[0]!.body).toContain('<opensearch:totalResults>27</opensearch:totalResults>');

    // Only what each may see: alice's private books are hers (and the shared one carol's).
    const seenBy = (who: keyof typeof walks) => new Set(walks[who].flatMap(codesIn));
    expect(seenBy('alice')).toContain(secret);
    expect(seenBy('bob')).not.toContain(secret);
    expect(seenBy('bob')).not.toContain(shared);
    expect(seenBy('bob')).toContain(volumes[22]);
    expect(seenBy('carol')).toContain(shared);
    expect(seenBy('carol')).not.toContain(secret);
    const searchFor = (who: keyof typeof walks, word: string) =>
      walks[who].filter((f) => f.path.startsWith(`/opds/search?q=${word}`)).flatMap(codesIn);
    expect(searchFor('alice', 'Secret')).toEqual([secret]);
    expect(searchFor('bob', 'Secret')).toEqual([]);
    expect(searchFor('bob', 'Volume')).toHaveLength(23);

    // Continue reading: the book alice has a place in, with how far she read.
    const continuing = walks.alice.find((f) => f.path === '/opds/continue')!;
    expect(codesIn(continuing)).toEqual([translated]);
    expect(continuing.body).toContain('读到第 2 页，共 2 页');
  });

  it('walks the whole 2.0 catalog of each reader, every feed valid for the JSON Schemas', async () => {
    const validate = await opds2Validator();
    const words = ['Volume', 'Secret', 'nothing-matches-this'];
    for (const headers of [alice, bob, carol]) {
      const feeds = await walk(t, headers, 2, words);
      expect(feeds.length).toBeGreaterThan(12);
      for (const feed of feeds) expect(validate(JSON.parse(feed.body)), feed.path).toEqual([]);
    }
    const library = JSON.parse((await t.app.inject({ url: '/opds/v2/library?page=2', headers: alice })).body);
    expect(library.metadata).toMatchObject({ numberOfItems: 27, itemsPerPage: 20, currentPage: 2 });
    expect(library.publications).toHaveLength(7);
    expect(library.links.map((l: { rel: string }) => l.rel)).toEqual([
      'self',
      'start',
      'up',
      'search',
      'first',
      'previous',
      'last',
    ]);
    // An empty list still says something: the way back to the catalog.
    const empty = JSON.parse((await t.app.inject({ url: '/opds/v2/continue', headers: bob })).body);
    expect(empty.publications).toBeUndefined();
    expect(empty.navigation[0].href).toBe('http://localhost:80/opds/v2');
  });

  it('offers each book’s original, and the bilingual and translated EPUBs where the reader has pages translated', async () => {
    const entry = async (headers: Headers, code: string) => {
      const feed = JSON.parse(
        (await t.app.inject({ url: '/opds/v2/search?query=' + encodeURIComponent('Tale'), headers })).body,
      );
      const search = (feed.publications ?? []).find((p: { metadata: { identifier: string } }) =>
        p.metadata.identifier.endsWith(code),
      );
      if (search) return search;
      const library = JSON.parse((await t.app.inject({ url: '/opds/v2/library', headers })).body);
      return library.publications.find((p: { metadata: { identifier: string } }) =>
        p.metadata.identifier.endsWith(code),
      );
    };
    const tale = await entry(alice, translated);
    const links = tale.links as { href: string; type: string; title: string; size?: number }[];
    expect(links.map((l) => [l.href.replace('http://localhost:80', ''), l.type])).toEqual([
      [`/opds/books/${translated}/original`, 'text/plain'],
      [`/opds/books/${translated}/bilingual/zh`, 'application/epub+zip'],
      [`/opds/books/${translated}/translated/zh`, 'application/epub+zip'],
    ]);
    expect(links[0]!.size).toBeGreaterThan(0);
    expect(links[1]!.title).toBe('双语 EPUB（English–简体中文）');
    // Not sent yet, so its size is not known: none is given.
    expect(links[1]!.size).toBeUndefined();
    // A book nobody translated for alice offers its original alone.
    const volume = JSON.parse((await t.app.inject({ url: '/opds/v2/library', headers: alice })).body).publications.find(
      (p: { metadata: { identifier: string } }) => p.metadata.identifier.endsWith(volumes[0]!),
    );
    expect(volume.links).toHaveLength(1);

    // The original is the stored file, byte for byte.
    const original = await t.app.inject({ url: `/opds/books/${translated}/original`, headers: alice });
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-type']).toContain('text/plain');
    expect(Number(original.headers['content-length'])).toBe(links[0]!.size);
    expect(original.body).toContain('Once upon a time there was a reader.');

    // The bilingual EPUB: asked twice, the same bytes (a device names it by them).
    const first = await t.app.inject({ url: `/opds/books/${translated}/bilingual/zh`, headers: alice });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/epub+zip');
    expect(first.headers['content-disposition']).toContain("filename*=UTF-8''");
    const zip = await JSZip.loadAsync(first.rawPayload);
    expect(await zip.file('mimetype')!.async('string')).toBe('application/epub+zip');
    // Later (past the zip format's 2-second clock): a clock in the file would show.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const second = await t.app.inject({ url: `/opds/books/${translated}/bilingual/zh`, headers: alice });
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    // Once sent, its size is given, exactly.
    const deadline = Date.now() + 5000;
    let size: number | undefined;
    while (size === undefined && Date.now() < deadline) {
      size = (await entry(alice, translated)).links[1].size;
      if (size === undefined) await new Promise((r) => setTimeout(r, 50));
    }
    expect(size).toBe(first.rawPayload.length);

    // A HEAD says what the file is without making it.
    const head = await t.app.inject({ method: 'HEAD', url: `/opds/books/${translated}/translated/zh`, headers: alice });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-disposition']).toContain('.epub');
    expect(head.rawPayload.length).toBe(0);
  });

  it('says clearly, in the reader’s language, that a translation is not ready instead of sending part of a book', async () => {
    const res = await t.app.inject({ url: `/opds/books/${halfRead}/bilingual/zh`, headers: alice });
    expect(res.statusCode).toBe(409);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe(
      '《A Half-read Story》还没有为你全部译成简体中文：还差 1 页。请在译读里打开这本书，选择“翻译整本书”，完成后再下载。',
    );
    const en = await t.app.inject({
      url: `/opds/books/${halfRead}/translated/zh`,
      headers: { ...alice, 'accept-language': 'en' },
    });
    // The reader's interface language wins over the device's (alice never chose one: the header decides).
    expect(en.statusCode).toBe(409);
    expect(en.body).toContain('is not fully translated into 简体中文 for you yet: 1 page(s) to go.');
  });

  it('gives no one a book they may not see, and stops at once when a share is revoked', async () => {
    for (const url of [`/opds/books/${secret}/original`, `/opds/books/${translated}/bilingual/zh`]) {
      const res = await t.app.inject({ url, headers: { ...bob, 'accept-language': 'en' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).toBe('This book is not in your catalog.');
    }
    expect((await t.app.inject({ url: `/opds/books/${shared}/original`, headers: carol })).statusCode).toBe(200);
    await t.call('DELETE', `/api/book/share/${shareId}`, { token: aliceToken });
    expect((await t.app.inject({ url: `/opds/books/${shared}/original`, headers: carol })).statusCode).toBe(404);
    const library = await t.app.inject({ url: '/opds/library', headers: carol });
    expect(library.body).not.toContain(shared);
  });
});
