/**
 * The authorisation matrix: every /api call of the OpenAPI route table × {guest, owner, other user,
 * recipient of a share, admin}, with the HTTP status each must get. A route added without an entry
 * here fails the first test.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeMicrosoft,
  startFakeOpenAi,
  type FakeServer,
} from '../src/engines/translation/testing/fake-servers.ts';
import { attachPdfFile } from './seed-book.ts';
import {
  CORPUS,
  pollStage,
  readTranslatedPage,
  registerUser,
  seedChineseBook,
  startTestApp,
  STRONG_PASSWORD,
  uploadFile,
  type CallResult,
  type TestApp,
} from './helpers.ts';

const ROLES = ['guest', 'owner', 'other', 'recipient', 'admin'] as const;
type Role = (typeof ROLES)[number];
type Expect = Record<Role, number>;
const E = (guest: number, owner: number, other: number, recipient: number, admin: number): Expect => ({
  guest,
  owner,
  other,
  recipient,
  admin,
});

const PUBLIC_OK = E(200, 200, 200, 200, 200);
const USER_OK = E(401, 200, 200, 200, 200);
const ADMIN_ONLY = E(401, 403, 403, 403, 200);
/** The private book P: its uploader, a recipient of a share link, admins; nobody else. */
const READ_P = E(401, 200, 404, 200, 200);
/** Changing the public book P: its uploader and admins; the recipient may see but not change it. */
const EDIT_P = E(401, 200, 404, 403, 200);
/** A feature not granted by the share link. */
const UNSHARED_FEATURE = E(401, 200, 404, 403, 200);
/** The user's own copy of P: the uploader and the recipient have one, the admin does not. */
const OWN_COPY = E(401, 200, 404, 200, 404);
/** Something that belongs to the owner alone (an annotation, a session, an upload request). */
const OWNER_THING = E(401, 200, 404, 404, 404);

interface Request {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: unknown;
  multipart?: { file?: { name: string; data: Buffer }; fields?: Record<string, string> };
  token?: string;
}

interface Ctx {
  t: TestApp;
  tokens: Record<Exclude<Role, 'guest'>, string>;
  ids: Record<Exclude<Role, 'guest'>, number>;
  P: string;
  Q: string;
  shareId: string;
  fileId: string;
  requestId: string;
  feedbackId: number;
  png: Buffer;
  /** A private PDF book of the owner, shared with the recipient (the page view's calls). */
  pdf: string;
}

/** Fresh things owned by the owner, for calls that change or delete them. */
const fresh = {
  annotation: async (c: Ctx) =>
    (
      await c.t.call('POST', '/api/reader/annotation', {
        token: c.tokens.owner,
        body: { bookCode: c.P, blockId: 'c1-b2', content: 'note' },
      })
    ).data.id,
  highlight: async (c: Ctx) =>
    (
      await c.t.call('POST', '/api/reader/highlight', {
        token: c.tokens.owner,
        body: { bookCode: c.P, blockId: 'c1-b2', start: 0, end: 2, quote: 'x' },
      })
    ).data.id,
  bookmark: async (c: Ctx) =>
    (await c.t.call('POST', '/api/reader/bookmark', { token: c.tokens.owner, body: { bookCode: c.P, page: 1 } })).data
      .id,
  /** A word the owner saved to their vocabulary book. */
  word: async (c: Ctx) =>
    (
      await c.t.call('POST', '/api/vocabulary', {
        token: c.tokens.owner,
        body: { bookCode: c.P, language: 'en', blockId: 'c1-b2', text: `词${randomBytes(4).toString('hex')}` },
      })
    ).data.id,
  /** A reader's pending suggestion for P's glossary (the recipient reads P through a share). */
  suggestion: async (c: Ctx) => {
    const glossary = await c.t.call('POST', '/api/book/glossary/suggest', {
      token: c.tokens.recipient,
      body: { bookCode: c.P, language: 'en', entry: { source: `词${Math.random()}`, target: 'word' } },
    });
    return (glossary.data.suggestions as { id: number; status: string }[]).find((s) => s.status === 'pending')!.id;
  },
  /** P's first page translated into English (reports need a translation to find wrong). */
  translatedPage: async (c: Ctx) => {
    await readTranslatedPage(c.t, c.tokens.owner, c.P, 1, 'en');
  },
  /** The owner's report of a wrong translation in P. */
  report: async (c: Ctx) => {
    await fresh.translatedPage(c);
    const res = await c.t.call('POST', '/api/reader/translation/report', {
      token: c.tokens.owner,
      body: { bookCode: c.P, language: 'en', blockId: 'c1-b2' },
    });
    return res.data.id as number;
  },
  /** A link to a new private book (accepting it must not give anyone access to P). */
  share: async (c: Ctx) => {
    const code = await seedChineseBook(c.t, 'owner');
    await c.t.call('POST', '/api/book/updateBook', { token: c.tokens.owner, body: { bookCode: code, bookStatus: 0 } });
    return (
      await c.t.call('POST', '/api/book/share/create', {
        token: c.tokens.owner,
        body: { bookCode: code, features: ['explanation'] },
      })
    ).data.id;
  },
  session: async (c: Ctx) => {
    const token = await c.t.running.services.auth.openSession(c.ids.owner, { ip: null, userAgent: 'matrix' });
    const sessions = await c.t.call('GET', '/api/user/sessions', { token });
    return sessions.data.find((s: { current: boolean }) => s.current).id;
  },
  /** A device password of the owner's (for an e-reader). */
  devicePassword: async (c: Ctx) =>
    (await c.t.call('POST', '/api/user/devicePasswords', { token: c.tokens.owner, body: { name: 'matrix' } })).data.id,
  /** A file the role has just uploaded: each upload can be saved as one request (a guest is refused first). */
  upload: async (c: Ctx, role: Role) => {
    if (role === 'guest') return c.fileId;
    const text = Buffer.from(`A short book for ${role}.\n\nIt has two paragraphs.`);
    return (await uploadFile(c.t, '/api/book/upload', { name: 's.txt', data: text }, c.tokens[role])).data.fileId;
  },
  /** An upload request of the owner that waits for its first stage (one that can be given up). */
  waitingRequest: async (c: Ctx) => {
    const fileId = await fresh.upload(c, 'owner');
    const saved = await c.t.call('POST', '/api/book/saveNew', {
      token: c.tokens.owner,
      body: { fileId, bookName: 'waiting', bookStatus: 0 },
    });
    return saved.data.requestId as string;
  },
  /** A private book of the owner that the recipient accepted through a link. */
  sharedBook: async (c: Ctx) => {
    const code = await seedChineseBook(c.t, 'owner');
    await c.t.call('POST', '/api/book/updateBook', { token: c.tokens.owner, body: { bookCode: code, bookStatus: 0 } });
    const share = await c.t.call('POST', '/api/book/share/create', {
      token: c.tokens.owner,
      body: { bookCode: code, features: ['explanation'] },
    });
    await c.t.call('PUT', `/api/book/share/accept/${share.data.id}`, { token: c.tokens.recipient });
    return code;
  },
};

const MATRIX: Record<string, { call: (c: Ctx, role: Role) => Request | Promise<Request>; expect: Expect }> = {
  // ---------- public ----------
  'GET /api/health': { call: () => ({ method: 'GET', url: '/api/health' }), expect: PUBLIC_OK },
  'GET /api/config/public': { call: () => ({ method: 'GET', url: '/api/config/public' }), expect: PUBLIC_OK },
  'POST /api/auth/register': {
    call: () => ({ method: 'POST', url: '/api/auth/register', body: { method: 'email', email: 'bad', password: 'x' } }),
    expect: E(400, 400, 400, 400, 400),
  },
  'POST /api/auth/login': {
    call: () => ({
      method: 'POST',
      url: '/api/auth/login',
      body: { account: 'nobody-here', password: 'Wrong2026pass' },
    }),
    expect: E(400, 400, 400, 400, 400),
  },
  'POST /api/auth/getVerificationCode': {
    call: () => ({ method: 'POST', url: '/api/auth/getVerificationCode?type=0&phone=x' }),
    expect: E(400, 400, 400, 400, 400),
  },
  'POST /api/auth/confirmAccount': {
    call: () => ({ method: 'POST', url: '/api/auth/confirmAccount?code=nothing' }),
    expect: E(400, 400, 400, 400, 400),
  },
  'POST /api/auth/resendActivation': {
    call: () => ({ method: 'POST', url: '/api/auth/resendActivation', body: { account: 'nobody-here' } }),
    expect: E(400, 400, 400, 400, 400),
  },
  'POST /api/auth/forgot-password-code': {
    call: () => ({ method: 'POST', url: '/api/auth/forgot-password-code', body: { account: 'nobody-here' } }),
    expect: E(400, 400, 400, 400, 400),
  },
  'POST /api/auth/resetPassword': {
    call: () => ({
      method: 'POST',
      url: '/api/auth/resetPassword',
      body: { account: 'nobody-here', code: '000000', password: STRONG_PASSWORD },
    }),
    expect: E(400, 400, 400, 400, 400),
  },

  // ---------- the current user ----------
  'GET /api/user/getUserinfo': { call: () => ({ method: 'GET', url: '/api/user/getUserinfo' }), expect: USER_OK },
  'POST /api/user/updateUserinfo': {
    call: () => ({ method: 'POST', url: '/api/user/updateUserinfo', body: { nickname: 'n' } }),
    expect: USER_OK,
  },
  'POST /api/user/changePassword': {
    call: () => ({
      method: 'POST',
      url: '/api/user/changePassword',
      body: { oldPassword: 'Wrong2026pass', password: STRONG_PASSWORD },
    }),
    expect: E(401, 400, 400, 400, 400),
  },
  'POST /api/user/changeLanguage': {
    call: () => ({ method: 'POST', url: '/api/user/changeLanguage', body: { language: 'Chinese' } }),
    expect: USER_OK,
  },
  'POST /api/user/changeEmail': {
    call: () => ({
      method: 'POST',
      url: '/api/user/changeEmail',
      body: { email: 'x@example.com', password: 'Wrong2026pass' },
    }),
    expect: E(401, 400, 400, 400, 400),
  },
  'POST /api/user/deleteAccount': {
    call: () => ({ method: 'POST', url: '/api/user/deleteAccount', body: { password: 'Wrong2026pass' } }),
    expect: E(401, 400, 400, 400, 400),
  },
  'POST /api/user/avatar': {
    call: (c) => ({ method: 'POST', url: '/api/user/avatar', multipart: { file: { name: 'a.png', data: c.png } } }),
    expect: USER_OK,
  },
  'POST /api/user/logout': {
    // A session of its own, so that logging out does not end the one the other calls use.
    call: async (c, role) =>
      role === 'guest'
        ? { method: 'POST', url: '/api/user/logout' }
        : {
            method: 'POST',
            url: '/api/user/logout',
            token: await c.t.running.services.auth.openSession(c.ids[role], { ip: null, userAgent: 'matrix' }),
          },
    expect: USER_OK,
  },
  'GET /api/user/checkVeteranUser': {
    call: () => ({ method: 'GET', url: '/api/user/checkVeteranUser' }),
    expect: USER_OK,
  },
  'GET /api/user/sessions': { call: () => ({ method: 'GET', url: '/api/user/sessions' }), expect: USER_OK },
  'DELETE /api/user/sessions/{id}': {
    call: async (c) => ({ method: 'DELETE', url: `/api/user/sessions/${await fresh.session(c)}` }),
    expect: OWNER_THING,
  },
  'GET /api/user/reader-settings': {
    call: () => ({ method: 'GET', url: '/api/user/reader-settings' }),
    expect: USER_OK,
  },
  'PUT /api/user/reader-settings': {
    call: () => ({ method: 'PUT', url: '/api/user/reader-settings', body: { fontSize: 20 } }),
    expect: USER_OK,
  },
  'GET /api/user/tabs': { call: () => ({ method: 'GET', url: '/api/user/tabs' }), expect: USER_OK },
  'PUT /api/user/tabs': {
    call: () => ({ method: 'PUT', url: '/api/user/tabs', body: { tabs: [], active: 'newTab' } }),
    expect: USER_OK,
  },
  'GET /api/integral/record/list': {
    call: () => ({ method: 'GET', url: '/api/integral/record/list' }),
    expect: USER_OK,
  },
  'GET /api/translation/engines': { call: () => ({ method: 'GET', url: '/api/translation/engines' }), expect: USER_OK },
  'GET /api/user/devicePasswords': {
    call: () => ({ method: 'GET', url: '/api/user/devicePasswords' }),
    expect: USER_OK,
  },
  'POST /api/user/devicePasswords': {
    call: () => ({ method: 'POST', url: '/api/user/devicePasswords', body: { name: 'Kobo' } }),
    expect: USER_OK,
  },
  'DELETE /api/user/devicePasswords/{id}': {
    call: async (c) => ({ method: 'DELETE', url: `/api/user/devicePasswords/${await fresh.devicePassword(c)}` }),
    expect: OWNER_THING,
  },

  // ---------- books and libraries ----------
  'GET /api/book/library': { call: () => ({ method: 'GET', url: '/api/book/library' }), expect: USER_OK },
  'GET /api/book/user/library': { call: () => ({ method: 'GET', url: '/api/book/user/library' }), expect: USER_OK },
  'GET /api/book/{kind}/library': {
    call: () => ({ method: 'GET', url: '/api/book/uploaded/library' }),
    expect: USER_OK,
  },
  'GET /api/book/user/list': { call: () => ({ method: 'GET', url: '/api/book/user/list' }), expect: USER_OK },
  'GET /api/book/user/getBookByCode': {
    call: (c) => ({ method: 'GET', url: `/api/book/user/getBookByCode?bookCode=${c.P}` }),
    expect: READ_P,
  },
  'POST /api/book/user/add': {
    call: (c) => ({ method: 'POST', url: '/api/book/user/add', body: { bookCode: c.Q } }),
    expect: USER_OK,
  },
  'POST /api/book/user/updateBook': {
    call: (c) => ({ method: 'POST', url: '/api/book/user/updateBook', body: { bookCode: c.P, bookDescribe: 'mine' } }),
    expect: OWN_COPY,
  },
  'POST /api/book/updateBook': {
    call: (c) => ({
      method: 'POST',
      url: '/api/book/updateBook',
      body: { bookCode: c.P, bookDescribe: 'public info' },
    }),
    expect: EDIT_P,
  },
  'POST /api/book/user/sync': {
    call: (c) => ({ method: 'POST', url: '/api/book/user/sync', body: { bookCode: c.P } }),
    expect: OWN_COPY,
  },
  'POST /api/book/user/batch': {
    call: (c) => ({
      method: 'POST',
      url: '/api/book/user/batch',
      body: { bookCodes: [c.P], action: 'setVisibility', bookStatus: 0 },
    }),
    expect: USER_OK,
  },
  'DELETE /api/book/user/{bookCode}': {
    call: async (c) => ({ method: 'DELETE', url: `/api/book/user/${await fresh.sharedBook(c)}` }),
    expect: OWN_COPY,
  },
  'DELETE /api/book/{bookCode}': {
    call: async (c) => ({ method: 'DELETE', url: `/api/book/${await fresh.sharedBook(c)}` }),
    expect: EDIT_P,
  },
  'POST /api/book/cover': {
    call: (c) => ({
      method: 'POST',
      url: `/api/book/cover?bookCode=${c.P}&scope=user`,
      multipart: { file: { name: 'c.png', data: c.png } },
    }),
    expect: OWN_COPY,
  },
  'GET /api/book/glossary': {
    call: (c) => ({ method: 'GET', url: `/api/book/glossary?bookCode=${c.P}&language=en` }),
    expect: READ_P,
  },
  'PUT /api/book/glossary': {
    call: (c) => ({ method: 'PUT', url: '/api/book/glossary', body: { bookCode: c.P, language: 'en', entries: [] } }),
    expect: EDIT_P,
  },
  'POST /api/book/glossary/extract': {
    call: (c) => ({ method: 'POST', url: '/api/book/glossary/extract', body: { bookCode: c.P, language: 'en' } }),
    expect: EDIT_P,
  },
  // Readers suggest; the owner (and an admin) edit instead, so their suggestion is a bad request.
  'POST /api/book/glossary/suggest': {
    call: (c) => ({
      method: 'POST',
      url: '/api/book/glossary/suggest',
      body: { bookCode: c.P, language: 'en', entry: { source: '通灵', target: 'Spirit' } },
    }),
    expect: E(401, 400, 404, 200, 400),
  },
  'POST /api/book/glossary/decide': {
    call: async (c) => ({
      method: 'POST',
      url: '/api/book/glossary/decide',
      body: { bookCode: c.P, id: await fresh.suggestion(c), accept: false },
    }),
    expect: EDIT_P,
  },
  'POST /api/reader/translation/report': {
    call: async (c) => {
      await fresh.translatedPage(c);
      return {
        method: 'POST',
        url: '/api/reader/translation/report',
        body: { bookCode: c.P, language: 'en', blockId: 'c1-b2' },
      };
    },
    expect: READ_P,
  },
  'POST /api/reader/translation/choose': {
    call: async (c) => ({
      method: 'POST',
      url: '/api/reader/translation/choose',
      body: { id: await fresh.report(c), choice: 'original' },
    }),
    expect: OWNER_THING,
  },
  'GET /api/admin/translation-reports': {
    call: () => ({ method: 'GET', url: '/api/admin/translation-reports' }),
    expect: ADMIN_ONLY,
  },
  'POST /api/book/glossary/retranslate': {
    call: (c) => ({
      method: 'POST',
      url: '/api/book/glossary/retranslate',
      body: { bookCode: c.P, language: 'en', points: 0 },
    }),
    expect: EDIT_P,
  },

  // ---------- a book to keep: whole-book translation and EPUB export (P is Chinese; into English) ----------
  'GET /api/book/export': {
    // German: no other entry translates P into it, so for its readers nothing is translated yet
    // (English pages are translated by other entries, whose order is not this one's business).
    call: (c) => ({ method: 'GET', url: `/api/book/export?bookCode=${c.P}&language=de` }),
    // Readers of P get the export's answer (nothing translated for them yet), others nothing.
    expect: E(401, 409, 404, 409, 409),
  },
  'GET /api/book/translation/quote': {
    call: (c) => ({ method: 'GET', url: `/api/book/translation/quote?bookCode=${c.P}&language=en` }),
    expect: READ_P,
  },
  'POST /api/book/translation/start': {
    call: (c) => ({
      method: 'POST',
      url: '/api/book/translation/start',
      body: { bookCode: c.P, language: 'en', points: 1000 },
    }),
    expect: READ_P,
  },
  'GET /api/book/translation/status': {
    call: (c) => ({ method: 'GET', url: `/api/book/translation/status?bookCode=${c.P}&language=en` }),
    expect: READ_P,
  },
  'POST /api/book/translation/cancel': {
    call: (c) => ({ method: 'POST', url: '/api/book/translation/cancel', body: { bookCode: c.P, language: 'en' } }),
    expect: READ_P,
  },

  // ---------- uploads ----------
  'POST /api/book/upload': {
    call: () => ({
      method: 'POST',
      url: '/api/book/upload',
      multipart: { file: { name: 's.txt', data: Buffer.from('A short book.\n\nIt has two paragraphs.') } },
    }),
    expect: USER_OK,
  },
  'POST /api/book/upload2': {
    call: () => ({
      method: 'POST',
      url: '/api/book/upload2',
      multipart: { file: { name: 's.txt', data: Buffer.from('Another short book.') } },
    }),
    expect: USER_OK,
  },
  'GET /api/book/upload/count': { call: () => ({ method: 'GET', url: '/api/book/upload/count' }), expect: USER_OK },
  'POST /api/book/saveNew': {
    call: async (c, role) => ({
      method: 'POST',
      url: '/api/book/saveNew',
      body: { fileId: await fresh.upload(c, role), bookName: 'x', bookStatus: 0 },
    }),
    expect: USER_OK,
  },
  'POST /api/book/save/{id}': {
    call: async (c, role) => ({
      method: 'POST',
      url: `/api/book/save/${await fresh.upload(c, role)}`,
      multipart: { fields: { data: JSON.stringify({ bookName: 'y', bookStatus: 0 }) } },
    }),
    expect: USER_OK,
  },
  'GET /api/book/analysis': {
    call: (c) => ({ method: 'GET', url: `/api/book/analysis?requestId=${c.requestId}` }),
    expect: OWNER_THING,
  },
  'GET /api/book/languageDetection': {
    call: (c) => ({ method: 'GET', url: `/api/book/languageDetection?requestId=${c.requestId}` }),
    expect: OWNER_THING,
  },
  'GET /api/book/translationBookName': {
    call: (c) => ({ method: 'GET', url: `/api/book/translationBookName?requestId=${c.requestId}` }),
    expect: OWNER_THING,
  },
  'GET /api/book/saveBookById': {
    call: (c) => ({ method: 'GET', url: `/api/book/saveBookById?requestId=${c.requestId}` }),
    expect: OWNER_THING,
  },
  'GET /api/book/upload/status': {
    call: (c) => ({ method: 'GET', url: `/api/book/upload/status?requestId=${c.requestId}` }),
    expect: OWNER_THING,
  },
  'POST /api/book/upload/retry': {
    call: (c) => ({ method: 'POST', url: `/api/book/upload/retry?requestId=${c.requestId}` }),
    expect: OWNER_THING,
  },
  'GET /api/book/upload/unfinished': {
    call: () => ({ method: 'GET', url: '/api/book/upload/unfinished' }),
    expect: USER_OK,
  },
  'POST /api/book/upload/discard': {
    call: async (c) => ({ method: 'POST', url: `/api/book/upload/discard?requestId=${await fresh.waitingRequest(c)}` }),
    expect: OWNER_THING,
  },

  // ---------- sharing ----------
  'POST /api/book/share/create': {
    call: (c) => ({ method: 'POST', url: '/api/book/share/create', body: { bookCode: c.P, features: [] } }),
    expect: EDIT_P,
  },
  'GET /api/book/share/mine': { call: () => ({ method: 'GET', url: '/api/book/share/mine' }), expect: USER_OK },
  'GET /api/book/share/{id}': {
    call: (c) => ({ method: 'GET', url: `/api/book/share/${c.shareId}` }),
    expect: USER_OK,
  },
  'PUT /api/book/share/accept/{id}': {
    call: async (c) => ({ method: 'PUT', url: `/api/book/share/accept/${await fresh.share(c)}` }),
    expect: USER_OK,
  },
  'DELETE /api/book/share/{id}': {
    call: async (c) => ({ method: 'DELETE', url: `/api/book/share/${await fresh.share(c)}` }),
    expect: E(401, 200, 403, 403, 200),
  },

  // ---------- reading ----------
  'GET /api/reader/getPageData': {
    call: (c) => ({ method: 'GET', url: `/api/reader/getPageData?bookCode=${c.P}&language=zh&page=1` }),
    expect: READ_P,
  },
  'GET /api/reader/block': {
    call: (c) => ({ method: 'GET', url: `/api/reader/block?bookCode=${c.P}&language=zh&blockId=c1-b2` }),
    expect: READ_P,
  },
  'GET /api/reader/events': {
    call: (c) => ({ method: 'GET', url: `/api/reader/events?bookCode=${c.P}&language=zh&page=1` }),
    expect: READ_P,
  },
  'GET /api/reader/marks': {
    call: (c) => ({ method: 'GET', url: `/api/reader/marks?bookCode=${c.P}` }),
    expect: READ_P,
  },
  'GET /api/reader/notes/export': {
    call: (c) => ({ method: 'GET', url: `/api/reader/notes/export?bookCode=${c.P}` }),
    expect: READ_P,
  },
  'GET /api/reader/position': {
    call: (c) => ({ method: 'GET', url: `/api/reader/position?bookCode=${c.P}` }),
    expect: READ_P,
  },
  'PUT /api/reader/position': {
    call: (c) => ({ method: 'PUT', url: '/api/reader/position', body: { bookCode: c.P, page: 1, language: 'en' } }),
    expect: READ_P,
  },
  'GET /api/reader/recent': { call: () => ({ method: 'GET', url: '/api/reader/recent' }), expect: USER_OK },
  'POST /api/reader/annotation': {
    call: (c) => ({
      method: 'POST',
      url: '/api/reader/annotation',
      body: { bookCode: c.P, blockId: 'c1-b2', content: 'x' },
    }),
    expect: READ_P,
  },
  'PUT /api/reader/annotation/{id}': {
    call: async (c) => ({
      method: 'PUT',
      url: `/api/reader/annotation/${await fresh.annotation(c)}`,
      body: { content: 'changed' },
    }),
    expect: OWNER_THING,
  },
  'DELETE /api/reader/annotation/{id}': {
    call: async (c) => ({ method: 'DELETE', url: `/api/reader/annotation/${await fresh.annotation(c)}` }),
    expect: OWNER_THING,
  },
  'POST /api/reader/highlight': {
    call: (c) => ({
      method: 'POST',
      url: '/api/reader/highlight',
      body: { bookCode: c.P, blockId: 'c1-b2', start: 0, end: 2, quote: 'x' },
    }),
    expect: READ_P,
  },
  'DELETE /api/reader/highlight/{id}': {
    call: async (c) => ({ method: 'DELETE', url: `/api/reader/highlight/${await fresh.highlight(c)}` }),
    expect: OWNER_THING,
  },
  'POST /api/reader/bookmark': {
    call: (c) => ({ method: 'POST', url: '/api/reader/bookmark', body: { bookCode: c.P, page: 1 } }),
    expect: READ_P,
  },
  'DELETE /api/reader/bookmark/{id}': {
    call: async (c) => ({ method: 'DELETE', url: `/api/reader/bookmark/${await fresh.bookmark(c)}` }),
    expect: OWNER_THING,
  },
  'POST /api/reader/ai/explain': {
    call: (c) => ({
      method: 'POST',
      url: '/api/reader/ai/explain',
      body: { bookCode: c.P, blockId: 'c1-b2', selection: '通灵', language: 'en', stream: false },
    }),
    expect: READ_P,
  },
  'POST /api/reader/ai/restate': {
    call: (c) => ({
      method: 'POST',
      url: '/api/reader/ai/restate',
      body: { bookCode: c.P, blockId: 'c1-b2', selection: '通灵', language: 'en', stream: false },
    }),
    expect: UNSHARED_FEATURE,
  },
  'POST /api/reader/ai/annotate': {
    call: (c) => ({ method: 'POST', url: '/api/reader/ai/annotate', body: { bookCode: c.P, language: 'en', page: 1 } }),
    expect: UNSHARED_FEATURE,
  },
  'POST /api/reader/search': {
    call: (c) => ({
      method: 'POST',
      url: '/api/reader/search',
      body: { bookCode: c.P, language: 'en', query: '通灵' },
    }),
    expect: UNSHARED_FEATURE,
  },

  'POST /api/reader/lookup': {
    call: (c) => ({
      method: 'POST',
      url: '/api/reader/lookup',
      body: { bookCode: c.P, language: 'en', text: '通灵', sentence: '而借通灵之说' },
    }),
    expect: READ_P,
  },
  'POST /api/reader/activity': {
    call: (c) => ({ method: 'POST', url: '/api/reader/activity', body: { bookCode: c.P, page: 1 } }),
    expect: READ_P,
  },
  'GET /api/reading-stats': { call: () => ({ method: 'GET', url: '/api/reading-stats' }), expect: USER_OK },

  // ---------- vocabulary ----------
  'GET /api/vocabulary': { call: () => ({ method: 'GET', url: '/api/vocabulary' }), expect: USER_OK },
  'POST /api/vocabulary': {
    call: (c) => ({
      method: 'POST',
      url: '/api/vocabulary',
      body: { bookCode: c.P, language: 'en', blockId: 'c1-b2', text: '通灵' },
    }),
    expect: READ_P,
  },
  'GET /api/vocabulary/export': {
    call: () => ({ method: 'GET', url: '/api/vocabulary/export?format=csv' }),
    expect: USER_OK,
  },
  'PUT /api/vocabulary/{id}': {
    call: async (c) => ({ method: 'PUT', url: `/api/vocabulary/${await fresh.word(c)}`, body: { note: 'n' } }),
    expect: OWNER_THING,
  },
  'DELETE /api/vocabulary/{id}': {
    call: async (c) => ({ method: 'DELETE', url: `/api/vocabulary/${await fresh.word(c)}` }),
    expect: OWNER_THING,
  },
  'POST /api/vocabulary/{id}/review': {
    call: async (c) => ({
      method: 'POST',
      url: `/api/vocabulary/${await fresh.word(c)}/review`,
      body: { result: 'known' },
    }),
    expect: OWNER_THING,
  },

  'GET /api/vocabulary/anki': { call: () => ({ method: 'GET', url: '/api/vocabulary/anki' }), expect: USER_OK },
  'POST /api/vocabulary/anki/sent': {
    // Marks only the caller's own words: another's id changes nothing (marked: 0).
    call: async (c) => ({ method: 'POST', url: '/api/vocabulary/anki/sent', body: { ids: [await fresh.word(c)] } }),
    expect: USER_OK,
  },

  // ---------- offline reading, Readwise, Obsidian ----------
  'GET /api/offline/pages': {
    call: (c) => ({ method: 'GET', url: `/api/offline/pages?bookCode=${c.P}&language=zh&from=1&to=5` }),
    expect: READ_P,
  },
  'GET /api/reader/notes/obsidian': {
    call: (c) => ({ method: 'GET', url: `/api/reader/notes/obsidian?bookCode=${c.P}` }),
    expect: READ_P,
  },
  'GET /api/integrations/readwise': {
    call: () => ({ method: 'GET', url: '/api/integrations/readwise' }),
    expect: USER_OK,
  },
  // Nobody here has connected Readwise: changing the choice or pushing says so.
  'PUT /api/integrations/readwise': {
    call: () => ({ method: 'PUT', url: '/api/integrations/readwise', body: { autoPush: false } }),
    expect: E(401, 409, 409, 409, 409),
  },
  'DELETE /api/integrations/readwise': {
    call: () => ({ method: 'DELETE', url: '/api/integrations/readwise' }),
    expect: USER_OK,
  },
  'POST /api/integrations/readwise/push': {
    call: () => ({ method: 'POST', url: '/api/integrations/readwise/push', body: {} }),
    expect: E(401, 409, 409, 409, 409),
  },

  // ---------- feedback ----------
  'POST /api/feedback/add': {
    call: () => ({
      method: 'POST',
      url: '/api/feedback/add',
      multipart: { fields: { title: 't', type: 'uiIssue', description: 'd' } },
    }),
    expect: USER_OK,
  },
  'GET /api/feedback/search': { call: () => ({ method: 'GET', url: '/api/feedback/search' }), expect: USER_OK },
  'GET /api/feedback/{id}': {
    call: (c) => ({ method: 'GET', url: `/api/feedback/${c.feedbackId}` }),
    expect: E(401, 200, 404, 404, 200),
  },
  'POST /api/feedback/{id}/status': {
    call: (c) => ({ method: 'POST', url: `/api/feedback/${c.feedbackId}/status`, body: { status: 'inProgress' } }),
    expect: ADMIN_ONLY,
  },

  // ---------- admin ----------
  'GET /api/admin/util/checkErrorByUsername': {
    call: () => ({ method: 'GET', url: '/api/admin/util/checkErrorByUsername?username=owner' }),
    expect: ADMIN_ONLY,
  },
  'GET /api/admin/util/checkErrorByAccount': {
    call: () => ({ method: 'GET', url: '/api/admin/util/checkErrorByAccount?account=owner' }),
    expect: ADMIN_ONLY,
  },
  'GET /api/admin/util/download': {
    call: (c) => ({ method: 'GET', url: `/api/admin/util/download?bookFilePath=${c.fileId}` }),
    expect: ADMIN_ONLY,
  },
  'GET /api/admin/util/bookUploadStatistic': {
    call: () => ({ method: 'GET', url: '/api/admin/util/bookUploadStatistic' }),
    expect: ADMIN_ONLY,
  },
  'GET /api/admin/util/userRegStatistic': {
    call: () => ({ method: 'GET', url: '/api/admin/util/userRegStatistic' }),
    expect: ADMIN_ONLY,
  },
  'GET /api/admin/util/userLoginStatistic': {
    call: () => ({ method: 'GET', url: '/api/admin/util/userLoginStatistic' }),
    expect: ADMIN_ONLY,
  },
  'GET /api/admin/util/findUserByName': {
    call: () => ({ method: 'GET', url: '/api/admin/util/findUserByName?username=o' }),
    expect: ADMIN_ONLY,
  },
  'GET /api/admin/util/findUploadByUserName': {
    call: () => ({ method: 'GET', url: '/api/admin/util/findUploadByUserName?username=o' }),
    expect: ADMIN_ONLY,
  },
  'GET /api/admin/util/monitorThreadPool': {
    call: () => ({ method: 'GET', url: '/api/admin/util/monitorThreadPool' }),
    expect: ADMIN_ONLY,
  },
  'GET /api/admin/util/kafkaCheck': {
    call: () => ({ method: 'GET', url: '/api/admin/util/kafkaCheck' }),
    expect: ADMIN_ONLY,
  },
  'GET /api/admin/util/getUserToken': {
    call: () => ({ method: 'GET', url: '/api/admin/util/getUserToken?account=other' }),
    expect: ADMIN_ONLY,
  },
  'GET /api/admin/util/findOldLoginUser': {
    call: () => ({ method: 'GET', url: '/api/admin/util/findOldLoginUser' }),
    expect: ADMIN_ONLY,
  },
  'GET /api/admin/util/findFrequentOperators': {
    call: () => ({ method: 'GET', url: '/api/admin/util/findFrequentOperators' }),
    expect: ADMIN_ONLY,
  },
  'POST /api/admin/util/addBook': {
    call: (c) => ({ method: 'POST', url: `/api/admin/util/addBook?bookCode=${c.Q}&userId=${c.ids.other}` }),
    expect: ADMIN_ONLY,
  },
  'POST /api/admin/util/retryUpload': {
    call: (c) => ({ method: 'POST', url: `/api/admin/util/retryUpload?requestId=${c.requestId}` }),
    expect: ADMIN_ONLY,
  },
  'GET /api/admin/util/getLoginCount': {
    call: () => ({ method: 'GET', url: '/api/admin/util/getLoginCount' }),
    expect: ADMIN_ONLY,
  },
  'GET /api/admin/util/getUserRetentionRate': {
    call: () => ({ method: 'GET', url: '/api/admin/util/getUserRetentionRate' }),
    expect: ADMIN_ONLY,
  },
  'GET /api/admin/util/system-info': {
    call: () => ({ method: 'GET', url: '/api/admin/util/system-info' }),
    expect: ADMIN_ONLY,
  },
  'GET /api/admin/stats/usage': { call: () => ({ method: 'GET', url: '/api/admin/stats/usage' }), expect: ADMIN_ONLY },
  'GET /api/admin/audit': { call: () => ({ method: 'GET', url: '/api/admin/audit' }), expect: ADMIN_ONLY },
  'POST /api/admin/users/{id}': {
    call: (c) => ({ method: 'POST', url: `/api/admin/users/${c.ids.other}`, body: {} }),
    expect: ADMIN_ONLY,
  },
  'GET /api/admin/invite-codes': {
    call: () => ({ method: 'GET', url: '/api/admin/invite-codes' }),
    expect: ADMIN_ONLY,
  },
  'POST /api/admin/invite-codes': {
    call: () => ({ method: 'POST', url: '/api/admin/invite-codes', body: { count: 1 } }),
    expect: ADMIN_ONLY,
  },
  'GET /api/admin/engines': { call: () => ({ method: 'GET', url: '/api/admin/engines' }), expect: ADMIN_ONLY },
  'PUT /api/admin/engines': {
    call: () => ({ method: 'PUT', url: '/api/admin/engines', body: [{ name: 'microsoft', enabled: true }] }),
    expect: ADMIN_ONLY,
  },
  'POST /api/admin/engines/test': {
    call: () => ({ method: 'POST', url: '/api/admin/engines/test', body: { name: 'microsoft' } }),
    expect: ADMIN_ONLY,
  },
  'GET /api/admin/setup': { call: () => ({ method: 'GET', url: '/api/admin/setup' }), expect: ADMIN_ONLY },
  'POST /api/admin/setup/check': {
    call: () => ({ method: 'POST', url: '/api/admin/setup/check' }),
    expect: ADMIN_ONLY,
  },
  'GET /api/admin/ai-models': { call: () => ({ method: 'GET', url: '/api/admin/ai-models' }), expect: ADMIN_ONLY },
  // The translation model, left disabled: the other calls keep their engines.
  'PUT /api/admin/ai-models/{use}': {
    call: () => ({
      method: 'PUT',
      url: '/api/admin/ai-models/translation',
      body: { baseUrl: 'http://127.0.0.1:9/v1', model: 'm', enabled: false },
    }),
    expect: ADMIN_ONLY,
  },
  'DELETE /api/admin/ai-models/{use}': {
    call: () => ({ method: 'DELETE', url: '/api/admin/ai-models/translation' }),
    expect: ADMIN_ONLY,
  },
  'POST /api/admin/ai-models/test': {
    call: () => ({ method: 'POST', url: '/api/admin/ai-models/test', body: { use: 'explanation' } }),
    expect: ADMIN_ONLY,
  },
  'GET /api/admin/prices': { call: () => ({ method: 'GET', url: '/api/admin/prices' }), expect: ADMIN_ONLY },
  'PUT /api/admin/prices': {
    call: () => ({ method: 'PUT', url: '/api/admin/prices', body: { search: 3 } }),
    expect: ADMIN_ONLY,
  },
  'POST /api/admin/points/grant': {
    call: (c) => ({
      method: 'POST',
      url: '/api/admin/points/grant',
      body: { userId: c.ids.other, points: 1, requestId: randomBytes(8).toString('hex') },
    }),
    expect: ADMIN_ONLY,
  },
  // ---------- the page view of a PDF book ----------
  'GET /api/reader/original': {
    call: (c) => ({ method: 'GET', url: `/api/reader/original?bookCode=${c.pdf}` }),
    expect: READ_P,
  },
  'GET /api/reader/pdfLocate': {
    call: (c) => ({ method: 'GET', url: `/api/reader/pdfLocate?bookCode=${c.pdf}&pdfPage=2` }),
    expect: READ_P,
  },
};

describe('the authorisation matrix', () => {
  let t: TestApp;
  let microsoft: FakeServer;
  let llm: FakeServer;
  let ctx: Ctx;
  beforeAll(async () => {
    microsoft = await startFakeMicrosoft();
    llm = await startFakeOpenAi();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      ADMIN_ACCOUNT: 'chief',
      ADMIN_PASSWORD: 'Chief2026pass',
      MICROSOFT_TRANSLATOR_ENDPOINT: microsoft.url,
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'fake',
      RATE_LIMIT_PER_MINUTE: '100000',
      UPLOADS_PER_DAY: '1000',
    });
    const tokens = {
      owner: await registerUser(t, 'owner'),
      other: await registerUser(t, 'other'),
      recipient: await registerUser(t, 'recipient'),
      admin: (await t.call('POST', '/api/auth/login', { body: { account: 'chief', password: 'Chief2026pass' } })).data
        .token as string,
    };
    const ids = Object.fromEntries(
      await Promise.all(
        Object.entries(tokens).map(async ([role, token]) => [
          role,
          (await t.call('GET', '/api/user/getUserinfo', { token })).data.id,
        ]),
      ),
    ) as Ctx['ids'];
    const P = await seedChineseBook(t, 'owner');
    await t.call('POST', '/api/book/updateBook', { token: tokens.owner, body: { bookCode: P, bookStatus: 0 } });
    const Q = await seedChineseBook(t, 'owner');
    const share = await t.call('POST', '/api/book/share/create', {
      token: tokens.owner,
      body: { bookCode: P, features: ['explanation'] },
    });
    await t.call('PUT', `/api/book/share/accept/${share.data.id}`, { token: tokens.recipient });
    const upload = await uploadFile(
      t,
      '/api/book/upload',
      { name: 'b.txt', data: Buffer.from('Some text of a book.') },
      tokens.owner,
    );
    const saved = await t.call('POST', '/api/book/saveNew', {
      token: tokens.owner,
      body: { fileId: upload.data.fileId, bookName: 'b', bookStatus: 0 },
    });
    // The whole pipeline runs first, so that every stage call answers its finished state.
    for (const stage of ['analysis', 'languageDetection', 'translationBookName', 'saveBookById']) {
      await pollStage(t, `/api/book/${stage}?requestId=${saved.data.requestId}`, tokens.owner);
    }
    // Glossary extraction expects JSON from the model.
    llm.setBehaviour({
      reply: ({ messages }) => (messages[0]?.content.includes('"terms"') ? JSON.stringify({ terms: [] }) : undefined),
    });
    const feedback = await uploadFile(t, '/api/feedback/add', undefined, tokens.owner, {
      title: 'mine',
      type: 'systemBug',
      description: 'd',
    });
    const { createCanvas } = await import('@napi-rs/canvas');
    const png = await createCanvas(40, 40).encode('png');
    const pdf = await seedChineseBook(t, 'owner');
    await attachPdfFile(t, pdf, await readFile(path.join(CORPUS, 'pdf/en-tracemonkey-two-column-footnotes.pdf')));
    await t.call('POST', '/api/book/updateBook', { token: tokens.owner, body: { bookCode: pdf, bookStatus: 0 } });
    const pdfShare = await t.call('POST', '/api/book/share/create', {
      token: tokens.owner,
      body: { bookCode: pdf, features: ['explanation'] },
    });
    await t.call('PUT', `/api/book/share/accept/${pdfShare.data.id}`, { token: tokens.recipient });
    ctx = {
      t,
      tokens,
      ids,
      P,
      Q,
      shareId: share.data.id,
      fileId: upload.data.fileId,
      requestId: saved.data.requestId,
      feedbackId: feedback.data.id,
      png,
      pdf,
    };
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await microsoft?.close();
    await llm?.close();
  });

  it('has an entry for every route of the API, and no entry for a route that does not exist', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const routes = Object.entries(doc.paths).flatMap(([p, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(
      routes.filter((r) => !(r in MATRIX)),
      'routes without an entry in the authorisation matrix',
    ).toEqual([]);
    expect(
      Object.keys(MATRIX).filter((r) => !routes.includes(r)),
      'entries for routes that do not exist',
    ).toEqual([]);
  });

  for (const [route, entry] of Object.entries(MATRIX)) {
    it(route, async () => {
      const got: Partial<Record<Role, number>> = {};
      for (const role of ROLES) {
        const request = await entry.call(ctx, role);
        const token = role === 'guest' ? undefined : (request.token ?? ctx.tokens[role]);
        let res: CallResult;
        if (request.multipart) {
          res = token
            ? await uploadFile(ctx.t, request.url, request.multipart.file, token, request.multipart.fields ?? {})
            : await ctx.t.call('POST', request.url, {
                headers: { 'content-type': 'multipart/form-data; boundary=x' },
                body: '--x--',
              });
        } else {
          res = await ctx.t.call(request.method, request.url, { body: request.body, ...(token ? { token } : {}) });
        }
        got[role] = res.status;
      }
      expect(got, JSON.stringify(got)).toEqual(entry.expect);
    });
  }
});
