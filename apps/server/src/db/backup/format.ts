/**
 * Yidu's backup file: one gzip stream of lines.
 *
 *   YIDU-BACKUP 1
 *   {"format":1,"createdAt":…,"migrations":[…],…}          the header (BackupHeader)
 *   {"table":"users","columns":["id",…]}                     then, for each table of our schema,
 *   1	alice	…                                               its rows in COPY's text format,
 *   \.                                                       and COPY's end-of-data line
 *   …
 *   {"end":true,"rows":{…},"sequences":[…],"sha256":…}     the trailer (BackupTrailer)
 *
 * COPY's text format escapes every backslash and line break inside a value, so a row is exactly one
 * line and a line `\.` can only be the end of a table's rows (as in pg_dump's plain format). The
 * trailer's sha256 covers every byte before it; with gzip's own CRC and length, and the row counts,
 * a damaged or cut-short file is found before anything is restored.
 */
import { createHash, type Hash } from 'node:crypto';
import type { Readable } from 'node:stream';

export const MAGIC = 'YIDU-BACKUP';
export const FORMAT_VERSION = 1;

export interface BackupHeader {
  format: number;
  createdAt: string;
  /** Yidu's version that made it. */
  yidu: string;
  /** The server it was made from, for the record (COPY's text format restores into any version). */
  postgres: string;
  /** The migrations applied to the database: its schema, which restore rebuilds from our own migrations. */
  migrations: string[];
  /**
   * A fingerprint of the app secret in use (an HMAC of a constant: it reveals nothing of the secret),
   * so that a restore can tell when the secret beside the restored database is another one.
   */
  secretFingerprint: string | null;
}

export interface TableFrame {
  table: string;
  columns: string[];
}

export interface SequenceValue {
  name: string;
  /** nextval's last answer (bigint as text), or null when it was never called. */
  value: string | null;
}

export interface BackupTrailer {
  end: true;
  /** Rows per table, as COPY counted them. */
  rows: Record<string, number>;
  sequences: SequenceValue[];
  /** SHA-256 of every byte before the trailer line, in hex. */
  sha256: string;
}

/** A backup that cannot be restored, with the reason in words meant for the person restoring it. */
export class BackupFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupFileError';
  }
}

export const END_OF_ROWS = '\\.\n';
const NEWLINE = 0x0a;
const BACKSLASH = 0x5c;
const DOT = 0x2e;

export const line = (value: unknown): string => JSON.stringify(value) + '\n';

/** What reading a backup meets, in order. */
export type BackupEvent =
  | { type: 'header'; header: BackupHeader }
  | { type: 'table'; frame: TableFrame }
  /** Whole rows (each ends with a line break) of the current table, `count` of them. */
  | { type: 'rows'; data: Buffer; count: number }
  | { type: 'tableEnd'; frame: TableFrame; rows: number }
  | { type: 'trailer'; trailer: BackupTrailer };

/**
 * Reads a backup's decompressed bytes as events, checking its shape as it goes: the magic line, the
 * frames, and at the end the trailer's checksum and row counts. Throws BackupFileError when the file
 * is not a backup, is cut short, or does not match its trailer.
 */
export async function* readBackup(input: Readable): AsyncGenerator<BackupEvent> {
  const hash = createHash('sha256');
  let pending: Buffer = Buffer.alloc(0);
  type State = 'magic' | 'header' | 'frame' | 'rows' | 'done';
  let state: State = 'magic';
  let frame: TableFrame | undefined;
  let rows = 0;
  const counted: Record<string, number> = {};

  /** A line outside a table's rows: what it says, and the state after it. */
  const frameLine = (text: string): { events: BackupEvent[]; next: State } => {
    if (state === 'magic') {
      const [magic, version] = text.split(' ');
      if (magic !== MAGIC) throw new BackupFileError('This is not a Yidu backup (it does not start as one).');
      if (Number(version) > FORMAT_VERSION)
        throw new BackupFileError(
          `This backup was made by a newer Yidu (backup format ${version}; this version reads format ${FORMAT_VERSION}). Restore it with that version or a later one.`,
        );
      return { events: [], next: 'header' };
    }
    const value = parseJson(text);
    if (state === 'header') {
      const header = value as BackupHeader;
      if (!Array.isArray(header.migrations))
        throw new BackupFileError('The backup file is damaged: its header is not readable.');
      return { events: [{ type: 'header', header }], next: 'frame' };
    }
    if ((value as BackupTrailer).end === true) {
      const trailer = value as BackupTrailer;
      if (trailer.sha256 !== hash.digest('hex'))
        throw new BackupFileError('The backup file is damaged: its content does not match its checksum.');
      for (const [table, count] of Object.entries(trailer.rows)) {
        if (counted[table] !== count)
          throw new BackupFileError(
            `The backup file is damaged: table ${table} holds ${counted[table] ?? 0} rows, not ${count}.`,
          );
      }
      return { events: [{ type: 'trailer', trailer }], next: 'done' };
    }
    const table = value as TableFrame;
    if (typeof table.table !== 'string' || !Array.isArray(table.columns))
      throw new BackupFileError('The backup file is damaged: a table header is not readable.');
    frame = table;
    rows = 0;
    return { events: [{ type: 'table', frame: table }], next: 'rows' };
  };

  for await (const chunk of gunzipErrors(input)) {
    pending = pending.length ? Buffer.concat([pending, chunk as Buffer]) : (chunk as Buffer);
    let at = 0;
    while (at < pending.length) {
      if (state === 'done') throw new BackupFileError('The backup file is damaged: something follows its end.');
      if (state === 'rows') {
        // Whole rows up to the end-of-data line (or the last whole line of what has arrived).
        const start = at;
        let count = 0;
        let ended = false;
        for (;;) {
          const end = pending.indexOf(NEWLINE, at);
          if (end < 0) break;
          if (end - at === 2 && pending[at] === BACKSLASH && pending[at + 1] === DOT) {
            ended = true;
            break;
          }
          count++;
          at = end + 1;
        }
        if (count > 0) {
          const data = pending.subarray(start, at);
          hash.update(data);
          rows += count;
          yield { type: 'rows', data, count };
        }
        if (!ended) break;
        hash.update(END_OF_ROWS);
        at += END_OF_ROWS.length;
        counted[frame!.table] = rows;
        state = 'frame';
        yield { type: 'tableEnd', frame: frame!, rows };
        continue;
      }
      const end = pending.indexOf(NEWLINE, at);
      if (end < 0) break;
      const text = pending.toString('utf8', at, end);
      const trailer = state === 'frame' && text.startsWith('{"end":');
      if (!trailer) hash.update(pending.subarray(at, end + 1));
      at = end + 1;
      const { events, next } = frameLine(text);
      state = next;
      for (const event of events) yield event;
    }
    pending = pending.subarray(at);
    // Keep what is left of a long line on its own (not a view into a chunk that is otherwise done).
    if (pending.length) pending = Buffer.from(pending);
  }
  if (state !== 'done')
    throw new BackupFileError(
      state === 'magic' ? 'The backup file is empty.' : 'The backup file is incomplete: it ends before its last table.',
    );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new BackupFileError('The backup file is damaged: a header line is not readable.');
  }
}

/** zlib's complaints about a file, in words for people. */
async function* gunzipErrors(input: Readable): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of input) yield chunk as Buffer;
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code === 'Z_BUF_ERROR' || /unexpected end of file/i.test((error as Error).message))
      throw new BackupFileError('The backup file is incomplete: it was cut short (copied before it was finished?).');
    if (code.startsWith('Z_'))
      throw new BackupFileError(
        `The backup file is damaged or is not a Yidu backup (gzip: ${(error as Error).message}).`,
      );
    throw error;
  }
}

/** The running checksum a writer keeps of what it wrote. */
export function checksum(): Hash {
  return createHash('sha256');
}
