import type { Mark, MarkKind } from '@yidu/shared/marks';
import { ApiError } from '../../api/client.ts';
import i18n from '../../i18n/index.ts';
import { get, put, type QueuedOp } from './db.ts';
import { useConnectivity } from './connectivity.ts';
import {
  enqueue,
  findBook,
  isDownloaded,
  pageOfBlock,
  queued,
  replaceQueued,
  saveMarks,
  storedDetail,
  storedMarks,
  storedPage,
  dequeue,
  listBooks,
} from './store.ts';

/**
 * What the web app does when Yidu cannot be reached, call by call (installed in api/client.ts).
 * Reading a downloaded book is answered from the device; marks, the position and saved words are
 * kept on the device and queued, each with a client id so that sending it again never makes a second
 * one (sync.ts sends the queue). Anything else fails as it would without this.
 */

type Query = Record<string, string | number | boolean | undefined | null> | undefined;
const MARK_PATHS: Record<string, MarkKind | 'styled'> = {
  '/reader/highlight': 'styled',
  '/reader/annotation': 'annotation',
  '/reader/bookmark': 'bookmark',
};
const CREATES = new Set([...Object.keys(MARK_PATHS), '/vocabulary']);

const uuid = () =>
  typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

/** Every create carries a client id, online too: a request whose answer was lost may be sent again. */
export function prepare(method: string, path: string, body: unknown): unknown {
  if (method !== 'POST' || !CREATES.has(path) || typeof body !== 'object' || body === null) return body;
  return 'clientId' in body ? body : { ...body, clientId: uuid() };
}

const notDownloaded = () =>
  new ApiError({ status: 0, code: -1, key: 'pageNotDownloaded', message: i18n.t('errors.pageNotDownloaded') });

let localIds = 0;
/** A stand-in id for a mark made offline: negative, so it never meets a server id. */
const localId = () => -(Date.now() * 1000 + (localIds++ % 1000));

async function updateMarks(bookCode: string, change: (marks: Mark[]) => Mark[]): Promise<void> {
  await saveMarks(bookCode, change((await storedMarks(bookCode)) ?? []));
}

/** Answers a call that could not reach Yidu, or undefined when the device has no answer for it. */
export async function answer(
  method: string,
  path: string,
  query: Query,
  body: unknown,
): Promise<{ value: unknown } | undefined> {
  useConnectivity.setState({ unreachable: true });
  const q = query ?? {};
  const b = (body ?? {}) as Record<string, unknown>;

  if (method === 'GET') {
    if (path === '/book/user/getBookByCode') {
      const book = await findBook(String(q.bookCode), q.readLanguage ? String(q.readLanguage) : undefined);
      return book ? { value: await storedDetail(book) } : undefined;
    }
    if (path === '/reader/getPageData') {
      if (!(await findBook(String(q.bookCode)))) return undefined;
      const page = await storedPage(String(q.bookCode), String(q.language), Number(q.page));
      if (!page) throw notDownloaded();
      return { value: page };
    }
    if (path === '/reader/marks') {
      const marks = await storedMarks(String(q.bookCode));
      if (!marks) return undefined;
      return { value: q.kind ? marks.filter((m) => m.kind === q.kind) : marks };
    }
    if (path === '/reader/position') {
      if (!(await isDownloaded(String(q.bookCode)))) return undefined;
      return { value: (await get('positions', String(q.bookCode))) ?? null };
    }
    return undefined;
  }

  if (method === 'PUT' && path === '/reader/position') {
    const bookCode = String(b.bookCode);
    if (!(await isDownloaded(bookCode))) return undefined;
    const position = {
      bookCode,
      page: Number(b.page),
      blockId: (b.blockId as string | null | undefined) ?? null,
      blockOffset: (b.blockOffset as number | null | undefined) ?? null,
      language: String(b.language),
      updatedAt: new Date().toISOString(),
    };
    await put('positions', position);
    // One position per book waits: the last one read.
    for (const op of await queued()) if (op.path === path && op.bookCode === bookCode) await dequeue(op.seq!);
    await enqueue({ clientId: uuid(), method: 'PUT', path, body, bookCode });
    return { value: position };
  }
  if (method === 'POST' && path === '/reader/activity') return { value: null };
  if (method === 'PUT' && path === '/user/tabs') return { value: body };

  const kind = MARK_PATHS[path];
  if (method === 'POST' && kind) {
    const bookCode = String(b.bookCode);
    if (!(await isDownloaded(bookCode))) return undefined;
    const blockId = (b.blockId as string | undefined) ?? '';
    const page = kind === 'bookmark' ? Number(b.page) : ((await pageOfBlock(bookCode, blockId)) ?? 1);
    const now = new Date().toISOString();
    const style = (b.style as MarkKind | undefined) ?? 'highlight';
    const mark: Mark = {
      id: localId(),
      kind: kind === 'styled' ? style : kind,
      bookCode,
      blockId,
      page,
      start: (b.start as number | null | undefined) ?? null,
      end: (b.end as number | null | undefined) ?? null,
      inTranslation: Boolean(b.inTranslation),
      language: (b.language as string | null | undefined) ?? null,
      quote: String(b.quote ?? ''),
      content:
        kind === 'annotation'
          ? String(b.content ?? '').trim()
          : kind === 'bookmark'
            ? ((b.note as string) ?? null)
            : null,
      color: kind === 'styled' && style === 'highlight' ? String(b.color ?? 'yellow') : null,
      createdAt: now,
      updatedAt: now,
    };
    await updateMarks(bookCode, (marks) => [...marks, mark]);
    await enqueue({ clientId: String(b.clientId), method: 'POST', path, body, bookCode, localId: mark.id });
    return { value: mark };
  }

  const edit = /^\/reader\/annotation\/(-?\d+)$/.exec(path);
  if (method === 'PUT' && edit) return editOffline(Number(edit[1]), String(b.content ?? ''), path, body);
  const removal = /^\/reader\/(highlight|annotation|bookmark)\/(-?\d+)$/.exec(path);
  if (method === 'DELETE' && removal) return removeOffline(Number(removal[2]), path);

  if (method === 'POST' && path === '/vocabulary') {
    await enqueue({ clientId: String(b.clientId), method: 'POST', path, body, bookCode: String(b.bookCode) });
    return { value: { ...b, id: localId(), ankiSentAt: null, createdAt: new Date().toISOString() } };
  }
  return undefined;
}

async function markHolder(id: number): Promise<{ bookCode: string; mark: Mark } | undefined> {
  const books = [...new Set((await queued()).map((op) => op.bookCode))];
  for (const book of await findAllBookCodes(books)) {
    const mark = (await storedMarks(book))?.find((m) => m.id === id);
    if (mark) return { bookCode: book, mark };
  }
  return undefined;
}

async function findAllBookCodes(extra: (string | null)[]): Promise<string[]> {
  return [...new Set([...(await listBooks()).map((b) => b.bookCode), ...extra.filter((x): x is string => !!x)])];
}

/** The queued create of a mark made offline (id < 0), while it has not been sent. */
async function queuedCreate(id: number): Promise<QueuedOp | undefined> {
  return (await queued()).find((op) => op.localId === id);
}

async function editOffline(id: number, content: string, path: string, body: unknown) {
  const holder = await markHolder(id);
  if (!holder) return undefined;
  const updated = { ...holder.mark, content: content.trim(), updatedAt: new Date().toISOString() };
  await updateMarks(holder.bookCode, (marks) => marks.map((m) => (m.id === id ? updated : m)));
  const create = id < 0 ? await queuedCreate(id) : undefined;
  if (create) await replaceQueued({ ...create, body: { ...(create.body as object), content: content.trim() } });
  else if (id < 0)
    await enqueue({
      clientId: uuid(),
      method: 'PUT',
      path,
      body,
      bookCode: holder.bookCode,
      targetClientId: await sentClientId(id),
    });
  else await enqueue({ clientId: uuid(), method: 'PUT', path, body, bookCode: holder.bookCode });
  return { value: updated };
}

async function removeOffline(id: number, path: string) {
  const holder = await markHolder(id);
  if (!holder) return undefined;
  await updateMarks(holder.bookCode, (marks) => marks.filter((m) => m.id !== id));
  const create = id < 0 ? await queuedCreate(id) : undefined;
  if (create?.seq !== undefined && !inFlight.has(create.clientId)) {
    // Never sent: it is as if it had not been made (its edits went into the create itself).
    await dequeue(create.seq);
  } else {
    await enqueue({
      clientId: uuid(),
      method: 'DELETE',
      path,
      bookCode: holder.bookCode,
      targetClientId: id < 0 ? (create?.clientId ?? (await sentClientId(id))) : undefined,
    });
  }
  return { value: null };
}

/** The client id of a mark made offline whose create is being sent (or was): later changes name it by that. */
async function sentClientId(localMarkId: number): Promise<string | undefined> {
  return (await get('meta', `local:${localMarkId}`))?.value as string | undefined;
}

/** Client ids of creates being sent right now (sync.ts). */
export const inFlight = new Set<string>();
