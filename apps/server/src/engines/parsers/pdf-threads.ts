/**
 * Reads a PDF's text layer with the help of other threads. Extracting text is most of a PDF's parse
 * time and runs one page after another in pdf.js, so pages are shared out: the parsing thread and up
 * to `helpers` worker threads each open the document and claim chunks of pages from one shared
 * counter until none are left (a fast reader simply takes more chunks). Pages a helper does not
 * deliver (it died, or never started) are read by the parsing thread at the end, so a helper can only
 * make a parse faster, never lose a page.
 *
 * Helper threads are kept for the next PDF and stopped after half a minute without work. pdf.js
 * numbers fonts per document, so each helper's font ids carry its own prefix (`t1:`); names for them
 * are asked of the helper that loaded them.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { ParseError, throwIfAborted } from './errors.ts';
import { fontFaces, pageLines } from './pdf-text.ts';
import type { FontFace, PageLines, PdfDocument } from './pdf-text.ts';
import type { HelperReply, HelperRequest } from './pdf-text-thread.ts';

const CHUNK_PAGES = 8;
const IDLE_MS = 30_000;
/** The parsing thread reads too, so one helper per further core (at most three). */
export const DEFAULT_PDF_HELPERS = Math.max(0, Math.min(3, os.availableParallelism() - 1));

class HelperThread {
  private readonly worker = new Worker(new URL('./pdf-text-thread.ts', import.meta.url));
  private idleTimer: NodeJS.Timeout | undefined;
  private onReply: ((reply: HelperReply) => void) | undefined;
  private onExit: (() => void) | undefined;
  dead = false;
  private readonly retire: (helper: HelperThread) => void;

  constructor(retire: (helper: HelperThread) => void) {
    this.retire = retire;
    this.worker.on('message', (reply: HelperReply) => this.onReply?.(reply));
    this.worker.on('error', () => undefined);
    this.worker.on('exit', () => {
      this.dead = true;
      this.retire(this);
      this.onExit?.();
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
    this.idleTimer = setTimeout(() => void this.stop(), IDLE_MS).unref();
  }

  send(request: HelperRequest): void {
    if (!this.dead) this.worker.postMessage(request);
  }

  /** Routes the thread's replies to `handler` until the next call; `exit` runs if the thread dies. */
  listen(handler: (reply: HelperReply) => void, exit: () => void): void {
    this.onReply = handler;
    this.onExit = exit;
  }

  async stop(): Promise<void> {
    clearTimeout(this.idleTimer);
    this.retire(this);
    await this.worker.terminate();
  }
}

const idle: HelperThread[] = [];
let lastJob = 0;
const all = new Set<HelperThread>();

function borrow(count: number): HelperThread[] {
  const out: HelperThread[] = [];
  while (out.length < count) {
    const helper =
      idle.pop() ??
      new HelperThread((h) => {
        all.delete(h);
        const i = idle.indexOf(h);
        if (i >= 0) idle.splice(i, 1);
      });
    all.add(helper);
    helper.take();
    out.push(helper);
  }
  return out;
}

function giveBack(helper: HelperThread): void {
  helper.putBack();
  if (!helper.dead) idle.push(helper);
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
  /** Names of fonts by the ids found in `pages`' lines. */
  fontFaces(requests: { font: string; page: number }[]): Promise<Map<string, FontFace>>;
  /** Lets the helpers go (call once, when the fonts are named). */
  release(): void;
}

export async function readTextLayer(
  doc: PdfDocument,
  input: Uint8Array,
  options: { helpers: number; signal?: AbortSignal; onProgress?: (pagesDone: number) => void },
): Promise<TextLayer> {
  const pageCount = doc.numPages;
  const chunks = Math.ceil(pageCount / CHUNK_PAGES);
  const counter = new Int32Array(new SharedArrayBuffer(4));
  const pages: (PageLines | undefined)[] = new Array(pageCount);
  let done = 0;
  const store = (page: PageLines) => {
    pages[page.page - 1] = page;
    options.onProgress?.(++done);
  };

  const job = ++lastJob;
  const helpers = borrow(Math.min(options.helpers, chunks - 1));
  const fontReplies = new Map<HelperThread, (faces: Record<string, FontFace>) => void>();
  const finished = helpers.map(
    (helper, i) =>
      new Promise<void>((resolve) => {
        helper.listen(
          (reply) => {
            if (reply.job !== job) return;
            if (reply.type === 'pages') reply.pages.forEach(store);
            else if (reply.type === 'done') resolve();
            else fontReplies.get(helper)?.(reply.faces);
          },
          () => {
            resolve();
            fontReplies.get(helper)?.({});
          },
        );
        helper.send({
          type: 'open',
          job,
          data: new Uint8Array(input),
          counter: counter.buffer,
          chunkPages: CHUNK_PAGES,
          pageCount,
          prefix: `t${i + 1}:`,
        });
      }),
  );
  let released = false;
  const release = () => {
    if (!released) helpers.forEach(giveBack);
    released = true;
  };

  try {
    for (let chunk = Atomics.add(counter, 0, 1); chunk < chunks; chunk = Atomics.add(counter, 0, 1)) {
      throwIfAborted(options.signal);
      const first = chunk * CHUNK_PAGES + 1;
      for (let n = first; n <= Math.min(pageCount, first + CHUNK_PAGES - 1); n++) store(await pageLines(doc, n));
      // pdf.js only queues microtasks: give the helpers' messages (and other requests) a turn.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await untilAborted(Promise.all(finished), options.signal);
    for (let n = 1; n <= pageCount; n++) {
      throwIfAborted(options.signal);
      if (!pages[n - 1]) store(await pageLines(doc, n));
    }
  } catch (error) {
    Atomics.store(counter, 0, chunks);
    release();
    throw error;
  }

  const helperOf = (font: string) => helpers[Number(/^t(\d+):/.exec(font)?.[1] ?? 0) - 1];
  return {
    pages: pages as PageLines[],
    release,
    async fontFaces(requests) {
      const bySource = new Map<HelperThread | undefined, { font: string; page: number }[]>();
      for (const r of requests) bySource.set(helperOf(r.font), [...(bySource.get(helperOf(r.font)) ?? []), r]);
      const answers = await Promise.all(
        [...bySource].map(async ([helper, asked]): Promise<[string, FontFace][]> => {
          if (!helper) return Object.entries(await fontFaces(doc, asked));
          const prefix = /^t\d+:/.exec(asked[0]!.font)![0];
          const faces = await new Promise<Record<string, FontFace>>((resolve) => {
            if (helper.dead) return resolve({});
            fontReplies.set(helper, resolve);
            helper.send({
              type: 'fonts',
              job,
              requests: asked.map((r) => ({ ...r, font: r.font.slice(prefix.length) })),
            });
          });
          return Object.entries(faces).map(([font, face]) => [prefix + font, face]);
        }),
      );
      return new Map(answers.flat());
    },
  };
}
