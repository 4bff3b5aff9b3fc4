import type { Mark } from '@yidu/shared/marks';
import { put } from './db.ts';
import { isDownloaded, listBooks, saveMarks, storedMarks } from './store.ts';

type Query = Record<string, string | number | boolean | undefined | null> | undefined;

/**
 * A call went through: the device's copy of a downloaded book follows what the server now has (its
 * marks and position), so that it is current when the network goes. Marks made offline and not sent
 * yet (negative ids) are kept.
 */
export async function keepCurrent(
  method: string,
  path: string,
  query: Query,
  body: unknown,
  data: unknown,
): Promise<void> {
  const b = (body ?? {}) as Record<string, unknown>;
  if (method === 'GET' && path === '/reader/marks' && !query?.kind) {
    const bookCode = String(query?.bookCode);
    if (!(await isDownloaded(bookCode))) return;
    const unsent = ((await storedMarks(bookCode)) ?? []).filter((m) => m.id < 0);
    await saveMarks(bookCode, [...(data as Mark[]), ...unsent]);
    return;
  }
  if (method === 'PUT' && path === '/reader/position') {
    if (await isDownloaded(String(b.bookCode))) await put('positions', data as never);
    return;
  }
  const bookCode = typeof b.bookCode === 'string' ? b.bookCode : undefined;
  if (method === 'POST' && /^\/reader\/(highlight|annotation|bookmark)$/.test(path) && bookCode) {
    if (!(await isDownloaded(bookCode))) return;
    const mark = data as Mark;
    await saveMarks(bookCode, [...((await storedMarks(bookCode)) ?? []).filter((m) => m.id !== mark.id), mark]);
    return;
  }
  const change = /^\/reader\/(highlight|annotation|bookmark)\/(\d+)$/.exec(path);
  if (change && (method === 'DELETE' || method === 'PUT')) {
    const id = Number(change[2]);
    for (const book of await listBooks()) {
      const marks = await storedMarks(book.bookCode);
      if (!marks?.some((m) => m.id === id)) continue;
      await saveMarks(
        book.bookCode,
        method === 'DELETE' ? marks.filter((m) => m.id !== id) : marks.map((m) => (m.id === id ? (data as Mark) : m)),
      );
    }
  }
}
