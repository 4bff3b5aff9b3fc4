/**
 * A helper thread for PDF text layers (started by pdf-threads.ts). It loads pdf.js and says `ready`;
 * then, for each document it is given, it
 * opens its own copy, claims chunks of pages from a counter shared with the parsing thread and the
 * other helpers, and posts each chunk's lines back, then the names of their fonts. Messages are handled
 * one at a time, in order, so a `close` always ends before the next document's `open`.
 */
import { parentPort } from 'node:worker_threads';
import { openPdf, PageReader, readChunks, warmUpPdfJs } from './pdf-text.ts';
import type { FontFace, PageLines, PdfDocument } from './pdf-text.ts';

export type HelperRequest =
  | { type: 'open'; job: number; data: Uint8Array; counter: SharedArrayBuffer; prefix: string; stretchPages?: number }
  | { type: 'close' };

/** Every reply but `ready` names its job: a reply to an abandoned parse must not reach the next one. */
export type HelperReply =
  | { type: 'ready' }
  | ({ job: number } & (
      { type: 'pages'; pages: PageLines[] } | { type: 'done'; faces?: Record<string, FontFace>; error?: string }
    ));

let doc: PdfDocument | undefined;
// A thread whose pdf.js cannot load never says it is ready, and so is never given a document.
let queue: Promise<void> = warmUpPdfJs().then(
  () => parentPort!.postMessage({ type: 'ready' } satisfies HelperReply),
  () => undefined,
);

async function handle(message: HelperRequest): Promise<void> {
  if (message.type === 'close') {
    await doc?.destroy().catch(() => undefined);
    doc = undefined;
    return;
  }
  const { job } = message;
  const post = (reply: HelperReply) => parentPort!.postMessage(reply);
  try {
    doc = await openPdf(message.data, { handOver: true });
    const reader = new PageReader(doc, message.prefix, message.stretchPages);
    const counter = new Int32Array(message.counter);
    await readChunks(reader, doc.numPages, counter, (pages) => post({ job, type: 'pages', pages }));
    // The parsing thread counts fonts by name when helpers took part: name all of this thread's.
    post({ job, type: 'done', faces: await reader.namedFonts() });
  } catch (error) {
    post({ job, type: 'done', error: (error as Error).message });
  }
}

parentPort!.on('message', (message: HelperRequest) => {
  queue = queue.then(() => handle(message));
});
