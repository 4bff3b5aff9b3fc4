/**
 * A helper thread for PDF text layers (started by pdf-threads.ts). It opens its own copy of the
 * document, claims chunks of pages from a counter shared with the parsing thread and the other
 * helpers, and posts each chunk's lines back; later it names fonts on request. Messages are handled
 * one at a time, in order, so a `close` always ends before the next document's `open`.
 */
import { parentPort } from 'node:worker_threads';
import { fontFaces, openPdf, pageLines } from './pdf-text.ts';
import type { PdfDocument } from './pdf-text.ts';

export type HelperRequest =
  | {
      type: 'open';
      job: number;
      data: Uint8Array;
      counter: SharedArrayBuffer;
      chunkPages: number;
      pageCount: number;
      prefix: string;
    }
  | { type: 'fonts'; job: number; requests: { font: string; page: number }[] }
  | { type: 'close' };

/** Every reply names its job: a reply to an abandoned parse must not reach the next one. */
export type HelperReply = { job: number } & (
  | { type: 'pages'; pages: Awaited<ReturnType<typeof pageLines>>[] }
  | { type: 'done'; error?: string }
  | { type: 'fonts'; faces: Awaited<ReturnType<typeof fontFaces>> }
);

let doc: PdfDocument | undefined;
let queue: Promise<void> = Promise.resolve();

const post = (reply: HelperReply) => parentPort!.postMessage(reply);

async function handle(message: HelperRequest): Promise<void> {
  if (message.type === 'open') {
    try {
      doc = await openPdf(message.data);
    } catch (error) {
      post({ job: message.job, type: 'done', error: (error as Error).message });
      return;
    }
    const counter = new Int32Array(message.counter);
    const chunks = Math.ceil(message.pageCount / message.chunkPages);
    for (let chunk = Atomics.add(counter, 0, 1); chunk < chunks; chunk = Atomics.add(counter, 0, 1)) {
      const first = chunk * message.chunkPages + 1;
      const last = Math.min(message.pageCount, first + message.chunkPages - 1);
      const pages = [];
      for (let n = first; n <= last; n++) pages.push(await pageLines(doc, n, message.prefix));
      post({ job: message.job, type: 'pages', pages });
    }
    post({ job: message.job, type: 'done' });
  } else if (message.type === 'fonts') {
    post({ job: message.job, type: 'fonts', faces: doc ? await fontFaces(doc, message.requests) : {} });
  } else {
    await doc?.destroy().catch(() => undefined);
    doc = undefined;
  }
}

parentPort!.on('message', (message: HelperRequest) => {
  queue = queue.then(() => handle(message));
});
