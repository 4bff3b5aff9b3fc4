/**
 * AnkiConnect (https://git.foosoft.net/alex/anki-connect), called from the reader's browser as Lute
 * does: `POST` of `{action, version: 6, params}` to the add-on's address, answered `{result, error}`.
 * The body goes as plain text, a "simple" request without a CORS preflight; AnkiConnect answers only
 * origins in its `webCorsOriginList` (and `http://localhost` by default), so a refused origin shows as
 * a failed fetch — told apart from "Anki is not running" by a no-cors probe, which reaches a running
 * Anki whatever its list says.
 */
export const DEFAULT_ANKI_ADDRESS = 'http://127.0.0.1:8765';
const VERSION = 6;

export type AnkiFailure = 'unreachable' | 'refused' | 'anki';

export class AnkiConnectError extends Error {
  readonly kind: AnkiFailure;
  constructor(kind: AnkiFailure, message: string) {
    super(message);
    this.name = 'AnkiConnectError';
    this.kind = kind;
  }
}

export async function invoke<T>(address: string, action: string, params?: Record<string, unknown>): Promise<T> {
  let response: Response;
  try {
    response = await fetch(address, {
      method: 'POST',
      body: JSON.stringify(params ? { action, version: VERSION, params } : { action, version: VERSION }),
      signal: AbortSignal.timeout(15_000),
    });
  } catch {
    throw new AnkiConnectError((await isRunning(address)) ? 'refused' : 'unreachable', `AnkiConnect at ${address}`);
  }
  if (response.status === 403) throw new AnkiConnectError('refused', 'AnkiConnect refused this origin');
  let reply: { result?: unknown; error?: unknown };
  try {
    reply = (await response.json()) as { result?: unknown; error?: unknown };
  } catch {
    throw new AnkiConnectError('anki', `AnkiConnect answered ${response.status} without JSON`);
  }
  if (reply.error) throw new AnkiConnectError('anki', String(reply.error));
  return reply.result as T;
}

/** Something listens at the address (an opaque answer), whatever its CORS list says. */
async function isRunning(address: string): Promise<boolean> {
  try {
    await fetch(address, { mode: 'no-cors', signal: AbortSignal.timeout(5000) });
    return true;
  } catch {
    return false;
  }
}

/** Asks Anki to let this origin in (Anki shows the reader a prompt); works before the origin is allowed. */
export function requestPermission(address: string) {
  return invoke<{ permission: 'granted' | 'denied'; requireApiKey?: boolean; version?: number }>(
    address,
    'requestPermission',
  );
}

export interface AnkiNote {
  deckName: string;
  modelName: string;
  fields: Record<string, string>;
  tags: string[];
  options: { allowDuplicate: false; duplicateScope: 'deck' };
}

const isDuplicateError = (error: string | undefined) => !!error && /duplicate/i.test(error);

/**
 * Which notes Anki can add, and why not: `canAddNotesWithErrorDetail` tells a duplicate from another
 * refusal (a missing deck); an AnkiConnect without it answers `canAddNotes`, where any refusal is taken
 * for a duplicate (the first field is then what is in the way, most of the time).
 */
async function canAdd(address: string, notes: AnkiNote[]): Promise<{ canAdd: boolean; error?: string }[]> {
  try {
    return await invoke<{ canAdd: boolean; error?: string }[]>(address, 'canAddNotesWithErrorDetail', { notes });
  } catch (error) {
    if (!(error instanceof AnkiConnectError && error.kind === 'anki' && /unsupported action/i.test(error.message)))
      throw error;
    const can = await invoke<boolean[]>(address, 'canAddNotes', { notes });
    return can.map((ok) => (ok ? { canAdd: true } : { canAdd: false, error: 'duplicate' }));
  }
}

/**
 * Adds the notes Anki does not have yet: duplicates (the same first field in the deck) are skipped;
 * other refusals are reported with Anki's reason.
 */
export async function addNew(
  address: string,
  notes: AnkiNote[],
): Promise<{ added: boolean[]; duplicate: boolean[]; errors: string[] }> {
  const checks = await canAdd(address, notes);
  const fresh = notes.filter((_, i) => checks[i]?.canAdd);
  const ids = fresh.length ? await invoke<(number | null)[]>(address, 'addNotes', { notes: fresh }) : [];
  let next = 0;
  const added = notes.map((_, i) => (checks[i]?.canAdd ? ids[next++] != null : false));
  const duplicate = notes.map((_, i) => !checks[i]?.canAdd && isDuplicateError(checks[i]?.error));
  const errors = [
    ...new Set(checks.flatMap((c) => (!c.canAdd && !isDuplicateError(c.error) && c.error ? [c.error] : []))),
  ];
  return { added, duplicate, errors };
}
