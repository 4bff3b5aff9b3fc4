import { create } from 'zustand';
import type { Mark, Position } from '@yidu/shared/marks';
import { ApiError, request } from '../../api/client.ts';
import { get, getAll, put, remove, type PositionConflict, type QueuedOp } from './db.ts';
import { useConnectivity } from './connectivity.ts';
import { inFlight } from './fallback.ts';
import { countQueued, dequeue, queued, storedMarks, saveMarks } from './store.ts';

/** Called with the books whose marks or position changed on the server (the reader refetches them). */
let onSynced: (bookCodes: string[]) => void = () => {};
export function setSyncListener(listener: (bookCodes: string[]) => void): void {
  onSynced = listener;
}

/** A refusal that sending again will not change (the mark is gone, the book too): the change is dropped. */
const isFinal = (error: unknown) =>
  error instanceof ApiError &&
  error.status >= 400 &&
  error.status < 500 &&
  error.status !== 408 &&
  error.status !== 429;

let running: Promise<void> | undefined;

/**
 * Sends what was done offline, in the order it was done, once each: creates carry their client id,
 * so one sent again (its answer lost) is not made twice, and one deleted meanwhile on another device
 * stays deleted (the server answers alreadyDeleted and the copy here is dropped). Stops at the first
 * call that finds no network; the rest waits for the next try. A reading position further back than
 * the one the server has (read on another device) is not sent: the reader is asked (conflicts).
 */
export function flushOutbox(): Promise<void> {
  running ??= flush().finally(() => {
    running = undefined;
  });
  return running;
}

async function flush(): Promise<void> {
  const ops = await queued();
  if (ops.length === 0) return;
  useConnectivity.setState({ syncing: true });
  const touched = new Set<string>();
  try {
    for (const listed of ops) {
      // Changed or withdrawn meanwhile (a mark made offline deleted before it was sent): as it is now.
      const op = await get('outbox', listed.seq!);
      if (!op) continue;
      try {
        await send(op);
      } catch (error) {
        if (!isFinal(error)) return;
        console.warn('A change made offline was refused and dropped', op.path, error);
      }
      if (op.bookCode) touched.add(op.bookCode);
      await dequeue(op.seq!);
    }
    useConnectivity.setState({ unreachable: false });
  } finally {
    useConnectivity.setState({ syncing: false });
    await countQueued();
    if (touched.size > 0) onSynced([...touched]);
  }
}

async function send(op: QueuedOp): Promise<void> {
  const direct = { offline: false } as const;
  if (op.path === '/reader/position') return sendPosition(op);
  let path = op.path;
  if (op.targetClientId) {
    const serverId = (await get('meta', `sent:${op.targetClientId}`))?.value;
    if (serverId === undefined) return; // its create never made it (refused): nothing to change
    path = path.replace(/-?\d+$/, String(serverId));
  }
  if (op.localId !== undefined) {
    inFlight.add(op.clientId);
    await put('meta', { key: `local:${op.localId}`, value: op.clientId });
  }
  try {
    const result = await request<unknown>(path, { method: op.method, body: op.body, ...direct });
    if (op.localId !== undefined && op.bookCode) {
      const mark = result as Mark;
      await put('meta', { key: `sent:${op.clientId}`, value: mark.id });
      const marks = (await storedMarks(op.bookCode)) ?? [];
      await saveMarks(
        op.bookCode,
        marks.map((m) => (m.id === op.localId ? mark : m)),
      );
    }
  } catch (error) {
    if (op.localId !== undefined && op.bookCode && error instanceof ApiError && error.key === 'alreadyDeleted') {
      const marks = (await storedMarks(op.bookCode)) ?? [];
      await saveMarks(
        op.bookCode,
        marks.filter((m) => m.id !== op.localId),
      );
    }
    throw error;
  } finally {
    inFlight.delete(op.clientId);
  }
}

/** The furthest position wins without asking; going back to where this device stopped is asked first. */
async function sendPosition(op: QueuedOp): Promise<void> {
  const body = op.body as { bookCode: string; page: number; blockId?: string | null; language: string };
  const server = await request<Position | null>('/reader/position', {
    query: { bookCode: body.bookCode },
    offline: false,
  });
  if (server && server.page > body.page) {
    await put('conflicts', {
      bookCode: body.bookCode,
      localPage: body.page,
      serverPage: server.page,
      serverBlockId: server.blockId,
      language: body.language,
    });
    await put('positions', { ...server });
    useConflicts.getState().refresh();
    return;
  }
  await request('/reader/position', { method: 'PUT', body, offline: false });
}

// ---------- position conflicts, asked in the reader ----------

export const useConflicts = create<{ conflicts: PositionConflict[]; refresh: () => void }>((set) => ({
  conflicts: [],
  refresh: () => void getAll('conflicts').then((conflicts) => set({ conflicts })),
}));

/** The reader chose: go to the further page, or stay (and this position is sent). */
export async function resolveConflict(conflict: PositionConflict, stay: boolean): Promise<void> {
  await remove('conflicts', conflict.bookCode);
  useConflicts.getState().refresh();
  if (stay)
    await request('/reader/position', {
      method: 'PUT',
      body: { bookCode: conflict.bookCode, page: conflict.localPage, language: conflict.language },
    }).catch(() => undefined);
}
