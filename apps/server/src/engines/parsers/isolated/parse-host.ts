/**
 * Parses books in separate processes (parse-child.ts) so that no file can hurt the API: a parse
 * that passes its memory limit or its time limit, or whose process dies, fails that one upload with
 * `fileTooComplex`, and the server lives on. A process serves one parse at a time and is kept for
 * the next (pdf.js and the OCR engine stay warm) until it has been idle a while or grew too large.
 *
 * Memory is held two ways: V8's heap limit (`--max-old-space-size`) stops JavaScript from growing
 * without bound, and a watchdog reads the process's resident size from /proc several times a second
 * and kills it past the limit, which also covers native memory (zlib, canvases, WebAssembly).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { ParseError } from '../errors.ts';
import type { LanguageDetection } from '../../language/detect.ts';
import type { BookImage, ParsedBook, PendingCrop } from '../types.ts';
import {
  BookAssembler,
  INPUT_BYTES_PER_MESSAGE,
  type BookHead,
  type BookPiece,
  type ChildMessage,
  type HostMessage,
  type IsolatedParseOptions,
} from './protocol.ts';

const CHILD_MODULE = new URL('./parse-child.ts', import.meta.url);
const WATCH_INTERVAL_MS = 200;
/**
 * A process resident above this share of its limit when a parse starts is replaced (freshIfGrown).
 * A warm process holds ~190 MB, ~250 MB after ordinary books: those are kept, pdf.js warm in them.
 */
const REUSE_FRACTION = 0.6;
/** The host kills a parse this long after the parse's own time limit, should it not stop itself. */
const KILL_GRACE_MS = 15_000;
const STDERR_TAIL_BYTES = 4096;

/** A parser's own failure (a bug, not the file's fault as far as we know), reported by the parse process. */
export class ParserFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ParserFailure';
  }
}

export interface ParseHostOptions {
  /** Resident memory a parse process may use, in MB; past it the process is killed. */
  memoryLimitMb: number;
  /** Parses running at once (one process each); further parses wait their turn. */
  maxProcesses: number;
  /** An idle process ends after this long. */
  idleMs?: number;
  /** Called when a process ends during a parse (or is killed for one), with its stderr's end, for the log. */
  onProcessDied?: (detail: { reason: string; stderr: string }) => void;
}

export interface HostParseOptions extends IsolatedParseOptions {
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export interface CropOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface HostParseResult {
  book: ParsedBook;
  /** The book's language (detectBookLanguage), told in the parse process. */
  detection: LanguageDetection;
  /** The largest resident size the watchdog saw during the parse, in MB (0 where /proc is missing). */
  peakRssMb: number;
}

/**
 * A parsed book still held by its parse process: its head (metadata, cover, warnings, figures) and
 * language now, its images and chapters piece by piece, each asked for when the one before is dealt
 * with — so the API's process never holds more than one piece of a large book. The process is kept
 * for this book until every piece is taken or `close()` lets the rest go.
 */
export interface ParsedStream {
  head: BookHead;
  detection: LanguageDetection;
  /** Images first, then chapters; a chapter larger than a piece is cut (`continues`). */
  pieces(): AsyncGenerator<BookPiece>;
  /** Lets the process go; safe to call more than once, and after every piece is taken. */
  close(): void;
  /** The largest resident size of the parse process so far, in MB. */
  readonly peakRssMb: number;
}

interface Worker {
  child: ChildProcess;
  busy: boolean;
  idleTimer?: NodeJS.Timeout;
  stderr: string;
  /** Why the host killed the process during a parse (a limit passed, a cancel), for the log. */
  killedFor?: string;
  /** Set by the current parse to hear about messages and the end of the process. */
  onMessage?: (message: ChildMessage) => void;
  onExit?: (reason: string) => void;
}

export class ParseHost {
  private readonly options: Required<Omit<ParseHostOptions, 'onProcessDied'>> & ParseHostOptions;
  private readonly workers = new Set<Worker>();
  private readonly waiting: ((worker: Worker) => void)[] = [];
  private closed = false;

  constructor(options: ParseHostOptions) {
    this.options = { idleMs: 10 * 60_000, ...options };
  }

  /** Starts a process ahead of the first parse (pdf.js warms up in it). */
  warmUp(): void {
    if (this.workers.size === 0 && !this.closed) this.release(this.spawn());
  }

  /** Parses a file; the book stays in its process, to be taken piece by piece (ParsedStream). */
  async parse(input: Buffer, options: HostParseOptions): Promise<ParsedStream> {
    const { onProgress: _progress, signal: _signal, ...sent } = options;
    return this.session(input, options, { type: 'parse', options: sent });
  }

  /**
   * Renders figures a parse of this PDF left for later (ParsedBook.pendingCrops), under the same
   * memory and time limits as a parse. Returns the images made; a crop whose region could not be
   * rendered has none. Fails as a parse does (ParseError, ParserFailure) when the file cannot be
   * opened or the process passes a limit.
   */
  async crop(input: Buffer, crops: PendingCrop[], options: CropOptions): Promise<BookImage[]> {
    const session = await this.session(input, options, { type: 'crop', crops, timeoutMs: options.timeoutMs });
    const images: BookImage[] = [];
    for await (const piece of session.pieces()) if (piece.type === 'images') images.push(...piece.images);
    return images;
  }

  /** A process of its own for one parse or crop, the file sent and the command given. */
  private async session(
    input: Buffer,
    options: HostParseOptions | CropOptions,
    command: Extract<HostMessage, { type: 'parse' | 'crop' }>,
  ): Promise<ParseSession> {
    if (this.closed) throw new Error('the parse host is closed');
    options.signal?.throwIfAborted();
    const worker = await this.freshIfGrown(await this.acquire());
    return new ParseSession(worker, this.options.memoryLimitMb, () => this.release(worker)).start(
      input,
      options,
      command,
    );
  }

  /**
   * A process that kept much of what its last book took (V8 and malloc rarely give memory back) would
   * count that against the next book's limit, and fail a small book for a large one's sake: it is
   * replaced by a fresh one before the parse.
   */
  private async freshIfGrown(worker: Worker): Promise<Worker> {
    const residentNow = await residentMb(worker.child.pid);
    if (residentNow <= this.options.memoryLimitMb * REUSE_FRACTION) return worker;
    worker.busy = false;
    this.workers.delete(worker);
    worker.child.kill('SIGTERM');
    const fresh = this.spawn();
    fresh.busy = true;
    return fresh;
  }

  /** Parses a file and takes the whole book at once (tools and tests; uploads take it in pieces). */
  async parseWhole(input: Buffer, options: HostParseOptions): Promise<HostParseResult> {
    const stream = await this.parse(input, options);
    const assembler = new BookAssembler();
    assembler.accept({ type: 'head', head: stream.head, detection: stream.detection });
    for await (const piece of stream.pieces()) assembler.accept(piece);
    return { book: assembler.book(), detection: stream.detection, peakRssMb: stream.peakRssMb };
  }

  /** Ends every process; parses still running fail. */
  async close(): Promise<void> {
    this.closed = true;
    const exits = [...this.workers].map(
      (w) =>
        new Promise<void>((resolve) => (w.child.exitCode !== null ? resolve() : w.child.once('exit', () => resolve()))),
    );
    for (const w of this.workers) {
      w.child.ref(); // an idle process is unref'd: without this the host could be gone before it hears the exit
      w.child.kill('SIGKILL');
    }
    await Promise.all(exits);
  }

  private acquire(): Promise<Worker> {
    for (const worker of this.workers) {
      if (!worker.busy) {
        worker.busy = true;
        clearTimeout(worker.idleTimer);
        worker.child.ref();
        return Promise.resolve(worker);
      }
    }
    if (this.workers.size < this.options.maxProcesses) {
      const worker = this.spawn();
      worker.busy = true;
      return Promise.resolve(worker);
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** After a parse: to the next one waiting, else idle until the idle time ends it. */
  private release(worker: Worker): void {
    worker.busy = false;
    const { child } = worker;
    if (!this.workers.has(worker) || child.killed || child.exitCode !== null || child.signalCode !== null) {
      // The process died or was killed (its exit may not be heard yet): a waiting parse gets a fresh one.
      this.workers.delete(worker);
      const next = this.waiting.shift();
      if (next && !this.closed) {
        const fresh = this.spawn();
        fresh.busy = true;
        next(fresh);
      }
      return;
    }
    const next = this.waiting.shift();
    if (next) {
      worker.busy = true;
      next(worker);
      return;
    }
    worker.child.unref();
    worker.idleTimer = setTimeout(() => worker.child.kill('SIGTERM'), this.options.idleMs);
    worker.idleTimer.unref();
  }

  private spawn(): Worker {
    const heapMb = Math.max(64, Math.floor(this.options.memoryLimitMb * 0.75));
    const child = fork(CHILD_MODULE, [], {
      execArgv: [`--max-old-space-size=${heapMb}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const worker: Worker = { child, busy: false, stderr: '' };
    this.workers.add(worker);
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      worker.stderr = (worker.stderr + chunk).slice(-STDERR_TAIL_BYTES);
    });
    child.on('message', (message: ChildMessage) => worker.onMessage?.(message));
    child.on('error', () => undefined); // 'exit' follows and says what happened
    child.on('exit', (code, signal) => {
      this.workers.delete(worker);
      clearTimeout(worker.idleTimer);
      const reason = signal ? `signal ${signal}` : `exit code ${code}`;
      if (worker.busy || worker.killedFor) {
        this.options.onProcessDied?.({ reason: worker.killedFor ?? reason, stderr: worker.stderr });
      }
      worker.onExit?.(reason);
    });
    return worker;
  }
}

/**
 * One parse in one process, from the file sent to the last piece taken. The watchdog (memory) runs
 * all along; the time limit until the head has come back.
 */
class ParseSession implements ParsedStream {
  head!: BookHead;
  detection!: LanguageDetection;
  peakRssMb = 0;
  private readonly worker: Worker;
  private readonly limitMb: number;
  private readonly onClosed: () => void;
  private waiter?: { resolve: (message: ChildMessage) => void; reject: (error: Error) => void };
  private ended?: Error;
  private closed = false;
  private watch?: NodeJS.Timeout;

  constructor(worker: Worker, limitMb: number, onClosed: () => void) {
    this.worker = worker;
    this.limitMb = limitMb;
    this.onClosed = onClosed;
  }

  /** Sends the file and the command; resolves once the book's head (or, for crops, 'cropped') is back. */
  async start(
    input: Buffer,
    options: Pick<HostParseOptions, 'onProgress' | 'signal' | 'timeoutMs'>,
    command: Extract<HostMessage, { type: 'parse' | 'crop' }>,
  ): Promise<this> {
    const { child } = this.worker;
    this.worker.onMessage = (message) => {
      if (message.type === 'progress') options.onProgress?.(message.fraction);
      else this.deliver(message);
    };
    this.worker.onExit = (reason) =>
      this.fail(new ParseError('fileTooComplex', `The parse process ended (${reason}) before the book was read`));
    this.watch = setInterval(() => {
      void residentMb(child.pid).then((mb) => {
        this.peakRssMb = Math.max(this.peakRssMb, mb);
        if (mb > this.limitMb)
          this.kill(new ParseError('fileTooComplex', `The parse used more than ${this.limitMb} MB`));
      });
    }, WATCH_INTERVAL_MS);
    const onAbort = () => this.kill(new ParseError('aborted', 'Parsing was cancelled'));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const deadline = setTimeout(
      () => this.kill(new ParseError('fileTooComplex', `The parse took longer than ${options.timeoutMs} ms`)),
      options.timeoutMs + KILL_GRACE_MS,
    );
    try {
      const head = this.next();
      head.catch(() => undefined); // it may fail while the file is still being sent; awaited below
      // The file goes in pieces, one after the other, each handed over before the next is made: this
      // event loop copies 1 MB at a time, never 30 MB at once.
      for (let at = 0; at < input.length && !this.ended; at += INPUT_BYTES_PER_MESSAGE) {
        await this.send({ type: 'input', piece: input.subarray(at, at + INPUT_BYTES_PER_MESSAGE) });
      }
      if (!this.ended) await this.send(command);
      const message = await head;
      if (command.type === 'crop' && message.type === 'cropped') return this;
      if (message.type !== 'head') throw new Error(`the parse process sent ${message.type} before the head`);
      this.head = message.head;
      this.detection = message.detection;
      if (this.head.cover) this.head.cover.data = asBuffer(this.head.cover.data);
      return this;
    } catch (error) {
      this.close();
      throw error;
    } finally {
      clearTimeout(deadline);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  async *pieces(): AsyncGenerator<BookPiece> {
    try {
      for (;;) {
        const asked = this.next();
        asked.catch(() => undefined); // awaited below, once the request is sent
        await this.send({ type: 'next' });
        const message = await asked;
        if (message.type === 'done') return;
        if (message.type !== 'images' && message.type !== 'chapters') {
          throw new Error(`the parse process sent ${message.type} for a piece`);
        }
        if (message.type === 'images') for (const image of message.images) image.data = asBuffer(image.data);
        yield message;
      }
    } finally {
      this.close();
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.watch);
    this.worker.onMessage = undefined;
    this.worker.onExit = undefined;
    // A book not taken to its end is let go; a dead process is left to the host's bookkeeping.
    if (!this.ended && this.worker.child.connected) this.worker.child.send({ type: 'drop' } satisfies HostMessage);
    this.onClosed();
  }

  private next(): Promise<ChildMessage> {
    if (this.ended) return Promise.reject(this.ended);
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  private deliver(message: ChildMessage): void {
    if (message.type === 'failed') {
      const key = message.key === 'aborted' ? 'fileTooComplex' : message.key;
      this.fail(
        key === 'internalError'
          ? new ParserFailure(message.message)
          : new ParseError(key as ParseError['key'], message.message),
      );
      return;
    }
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.resolve(message);
  }

  private fail(error: Error): void {
    if (this.ended) return;
    this.ended = error;
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.reject(error);
  }

  private kill(error: ParseError): void {
    if (this.ended || this.closed) return;
    this.worker.killedFor = error.message;
    this.fail(error);
    this.worker.child.kill('SIGKILL');
  }

  private send(message: HostMessage): Promise<void> {
    return new Promise((sent, refused) =>
      this.worker.child.send(message, (error) =>
        error
          ? refused(new ParseError('fileTooComplex', `The parse process could not be reached: ${error.message}`))
          : sent(),
      ),
    );
  }
}

/** Structured clone turns a Buffer into a plain Uint8Array; make it a Buffer again, without a copy. */
function asBuffer(data: Uint8Array): Buffer {
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/** Resident memory of a process in MB, from /proc (Linux); 0 where that cannot be read. */
async function residentMb(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : 0;
  } catch {
    return 0;
  }
}
