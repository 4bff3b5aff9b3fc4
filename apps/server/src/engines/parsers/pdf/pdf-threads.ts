/**
 * Reads a PDF's text layer with the help of other threads. Extracting text is most of a PDF's parse
 * time and runs one page after another in pdf.js, so pages are shared out: the parsing thread and up
 * to `helpers` worker threads each open the document and claim chunks of pages from one shared
 * counter until none are left (a fast reader simply takes more chunks). Pages a helper does not
 * deliver (it died) are read by the parsing thread at the end: a dead helper costs time, never a page.
 *
 * Only helpers already started and warm are used (see borrow); they are kept for the next PDF and
 * stop after five minutes without work. Fonts come back keyed by name (see PageReader), so the lines
 * are the same whichever thread read them.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { ParseError, throwIfAborted } from '../errors.ts';
import { CHUNK_PAGES, PageReader, readChunks } from './pdf-text.ts';
import type { FontFace, PageLines, PdfDocument } from './pdf-text.ts';
import type { HelperReply, HelperRequest } from './pdf-text-thread.ts';

const IDLE_MS = 5 * 60_000;
const MAX_BYTES_WITH_HELPERS = 10 * 1024 * 1024;
/** A helper opens the document and loads its fonts again: worth it from 3 chunks (24 pages) each. */
const MIN_CHUNKS_PER_READER = 3;
const HELPER_FONT = /^t\d+:/;
/** Helper threads of the whole process, whatever the number of parses running at once. */
const MAX_HELPER_THREADS = 3;
/**
 * Helpers for a PDF of `bytes`: `wanted`, else one per further core (the parsing thread reads too),
 * at most three. A helper holds its own copy of the document with pdf.js's fonts and parsed objects:
 * for a 30 MB PDF that is 250 MB more at the peak, so files over 10 MB are read by the parsing thread
 * alone whatever is wanted.
 */
export function pdfHelpers(bytes: number, wanted?: number): number {
  if (bytes > MAX_BYTES_WITH_HELPERS) return 0;
  return Math.min(MAX_HELPER_THREADS, wanted ?? Math.max(0, os.availableParallelism() - 1));
}

/** Started and ready helpers without work, the most recently used last. */
const idle: HelperThread[] = [];
const all = new Set<HelperThread>();
let lastJob = 0;

class HelperThread {
  private readonly worker = new Worker(new URL('./pdf-text-thread.ts', import.meta.url));
  private idleTimer: NodeJS.Timeout | undefined;
  private onReply: ((reply: HelperReply) => void) | undefined;
  private onExit: ((error: string) => void) | undefined;
  private error = 'stopped';
  readonly ready: Promise<void>;
  dead = false;

  constructor() {
    all.add(this);
    // Starting is not work: a helper being started never keeps the process alive.
    this.worker.unref();
    let becomeReady = () => {};
    this.ready = new Promise((resolve) => (becomeReady = resolve));
    this.worker.on('message', (reply: HelperReply) => {
      if (reply.type !== 'ready') return this.onReply?.(reply);
      this.rest();
      becomeReady();
    });
    this.worker.on('error', (error) => (this.error = error.message));
    this.worker.on('exit', () => {
      this.dead = true;
      this.retire();
      becomeReady();
      this.onExit?.(this.error);
    });
  }

  /** Work starts: the thread keeps the process alive until it is put back. */
  take(): void {
    clearTimeout(this.idleTimer);
    this.worker.ref();
  }

  putBack(): void {
    this.send({ type: 'close' });
    this.onReply = undefined;
    this.onExit = undefined;
    this.worker.unref();
    this.rest();
  }

  send(request: HelperRequest, transfer: ArrayBuffer[] = []): void {
    if (!this.dead) this.worker.postMessage(request, transfer);
  }

  /** Routes the thread's replies to `handler` until put back; `exit` runs if the thread dies. */
  listen(handler: (reply: HelperReply) => void, exit: (error: string) => void): void {
    this.onReply = handler;
    this.onExit = exit;
  }

  async stop(): Promise<void> {
    clearTimeout(this.idleTimer);
    this.retire();
    await this.worker.terminate();
  }

  /** Waits for work among the idle helpers, for IDLE_MS at most. */
  private rest(): void {
    if (this.dead) return;
    idle.push(this);
    this.idleTimer = setTimeout(() => void this.stop(), IDLE_MS).unref();
  }

  private retire(): void {
    all.delete(this);
    if (idle.includes(this)) idle.splice(idle.indexOf(this), 1);
  }
}

/**
 * Up to `count` helpers that are ready now. A parse never waits for a helper to start: a thread that
 * has just started reads far more slowly than the parsing thread (it loads pdf.js and compiles it as
 * it goes), which made parses slower, not faster. Missing helpers are started for the next parses.
 */
function borrow(count: number): HelperThread[] {
  const out = idle.splice(Math.max(0, idle.length - count));
  for (const helper of out) helper.take();
  void startPdfHelpers(count);
  return out;
}

/** Starts helpers until `count` are alive (at most MAX_HELPER_THREADS); resolves when they are ready. */
export async function startPdfHelpers(count: number): Promise<void> {
  while (all.size < Math.min(count, MAX_HELPER_THREADS)) new HelperThread();
  await Promise.all([...all].map((helper) => helper.ready));
}

/** Helper threads alive now, busy or idle. */
export function pdfHelperThreadCount(): number {
  return all.size;
}

/** Stops every helper thread (at shutdown, and between test files). */
export async function disposePdfThreads(): Promise<void> {
  await Promise.all([...all].map((h) => h.stop()));
}

/** `work`, or ParseError('aborted') as soon as `signal` fires. */
async function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  throwIfAborted(signal);
  let onAbort = (): void => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new ParseError('aborted', 'Parsing was cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

export interface TextLayer {
  /** Every page, in order. */
  pages: PageLines[];
  /** Helpers that failed (their pages were read by the parsing thread). */
  warnings: string[];
  /** The faces of fonts, by the keys lines have (a font's name when threads shared the work). */
  fontFaces(keys: string[]): Promise<Map<string, FontFace>>;
}

export async function readTextLayer(
  doc: PdfDocument,
  input: Uint8Array,
  options: { helpers: number; stretchPages?: number; signal?: AbortSignal; onProgress?: (pagesDone: number) => void },
): Promise<TextLayer> {
  throwIfAborted(options.signal);
  const pageCount = doc.numPages;
  const chunks = Math.ceil(pageCount / CHUNK_PAGES);
  const counter = new Int32Array(new SharedArrayBuffer(4));
  const pages: (PageLines | undefined)[] = new Array(pageCount);
  /** Font faces by (thread-prefixed) pdf.js id. */
  const faces = new Map<string, FontFace>();
  let done = 0;
  let byHelpers = 0;
  const warnings: string[] = [];
  const store = (page: PageLines) => {
    pages[page.page - 1] = page;
    options.onProgress?.(++done);
  };
  const addFaces = (named: Record<string, FontFace>) => {
    for (const [id, face] of Object.entries(named)) faces.set(id, face);
  };

  const job = ++lastJob;
  const helpers = borrow(Math.min(options.helpers, Math.floor(chunks / MIN_CHUNKS_PER_READER) - 1));
  const helperDone = helpers.map(() => false);
  const finished = helpers.map(
    (helper, i) =>
      new Promise<void>((settle) => {
        const resolve = () => {
          helperDone[i] = true;
          settle();
        };
        helper.listen(
          (reply) => {
            if (reply.type === 'ready' || reply.job !== job) return;
            if (reply.type === 'pages') {
              reply.pages.forEach(store);
              byHelpers += reply.pages.length;
            } else {
              if (reply.error) warnings.push(`A PDF helper thread could not read the file: ${reply.error}`);
              addFaces(reply.faces ?? {});
              resolve();
            }
          },
          (error) => {
            warnings.push(`A PDF helper thread stopped (${error}); the parsing thread read its pages`);
            resolve();
          },
        );
        // A copy of the bytes, moved (not copied again) to the helper.
        const data = new Uint8Array(input);
        const { stretchPages } = options;
        helper.send({ type: 'open', job, data, counter: counter.buffer, prefix: `t${i + 1}:`, stretchPages }, [
          data.buffer,
        ]);
      }),
  );

  const reader = new PageReader(doc, '', options.stretchPages);
  try {
    const onChunk = async (chunk: PageLines[]) => {
      chunk.forEach(store);
      throwIfAborted(options.signal);
      // pdf.js only queues microtasks: give the helpers' messages (and other requests) a turn.
      await new Promise((resolve) => setImmediate(resolve));
    };
    await readChunks(reader, pageCount, counter, onChunk);
    await untilAborted(Promise.all(finished), options.signal);
    for (const n of [...pages.keys()].filter((i) => !pages[i]).map((i) => i + 1)) {
      throwIfAborted(options.signal);
      store(await reader.read(n));
    }
  } finally {
    // A helper still reading when the parse ends (cancelled, or timed out on a page pdf.js never
    // finishes) is stopped rather than kept: stuck, it would hold up every later parse that took it.
    helpers.forEach((helper, i) => (helperDone[i] ? helper.putBack() : void helper.stop()));
  }

  // One font has an id per thread, and new ones after pdf.js's caches were emptied: lines then key
  // fonts by name.
  if (byHelpers || reader.emptiedCaches) {
    addFaces(await reader.namedFonts());
    for (const page of pages as PageLines[]) {
      for (const line of page.lines) {
        const face = line.font === undefined ? undefined : faces.get(line.font);
        if (!face?.name) continue;
        line.font = `name:${face.name}`;
        faces.set(line.font, face);
      }
    }
  }
  return {
    pages: pages as PageLines[],
    warnings,
    async fontFaces(keys) {
      // Fonts of this thread not named yet are named now; a dead helper's stay unknown.
      const unnamed = keys.filter((key) => !faces.has(key) && !HELPER_FONT.test(key));
      if (unnamed.length) addFaces(await reader.nameFonts(unnamed));
      return new Map(keys.filter((key) => faces.has(key)).map((key) => [key, faces.get(key)!]));
    },
  };
}
