/**
 * pdf.js's worker side, run in the calling thread behind a message port of our own.
 *
 * Without a worker thread, pdf.js passes its messages through a "loopback" port that deep-copies each
 * one with structuredClone, as a real thread boundary would. A page's text content is the bulk of them
 * (for CJK text one item per glyph), and copying it was 11% of a CJK book's parse. The worker side
 * builds each text chunk from fresh objects, hands it over and starts a new one (it replaces the
 * chunk's `items` and `styles` after sending it, and never touches what it sent again), so this port
 * passes text chunks on with a shallow copy of their envelope. Every other message is copied as
 * before: operator lists, for one, are emptied by the worker side once sent.
 */
import { PARSE_LIMITS } from '../limits.ts';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';

type PdfJs = typeof PdfJsModule;
type Listener = (event: { data: unknown }) => void;

interface TextChunkMessage {
  chunk: { items: unknown[]; styles: object };
}

function isTextChunk(message: unknown): message is TextChunkMessage {
  const chunk = (message as Partial<TextChunkMessage> | null)?.chunk;
  return typeof chunk === 'object' && chunk !== null && Array.isArray(chunk.items) && typeof chunk.styles === 'object';
}

/**
 * Both ends of pdf.js's conversation on one port, as its own loopback port does; delivery is async.
 * pdf.js only adds listeners, and removes them by aborting the signal it gives; the shared worker is
 * never destroyed, so the port is never terminated.
 */
class InThreadPort {
  private readonly listeners = new Set<Listener>();

  postMessage(message: unknown, transfer?: Transferable[]): void {
    const data = isTextChunk(message)
      ? { ...message, chunk: { ...message.chunk } }
      : structuredClone(message, transfer ? { transfer } : undefined);
    void Promise.resolve().then(() => {
      for (const listener of this.listeners) listener.call(this, { data });
    });
  }

  addEventListener(type: string, listener: Listener, options?: { signal?: AbortSignal }): void {
    if (type !== 'message' || options?.signal?.aborted) return;
    this.listeners.add(listener);
    // pdf.js stops listening by aborting: a document's handlers must not outlive it.
    options?.signal?.addEventListener('abort', () => this.listeners.delete(listener), { once: true });
  }

  /** Listeners still attached (documents opened and not destroyed hold some); for tests. */
  get listenerCount(): number {
    return this.listeners.size;
  }
}

let shared: Promise<{ worker: InstanceType<PdfJs['PDFWorker']>; port: InThreadPort }> | undefined;

/** This thread's pdf.js worker side, started on first use and kept: documents share it. */
export function inThreadWorker(
  pdfjs: PdfJs,
): Promise<{ worker: InstanceType<PdfJs['PDFWorker']>; port: InThreadPort }> {
  shared ??= (async () => {
    // Read by Yidu's patch of pdf.js (patches/): a stream that decodes to more is refused, so a flate
    // bomb (1 MB that inflates to 1 GB) fails its pages instead of filling the memory.
    (globalThis as { __yiduPdfStreamBytesLimit?: number }).__yiduPdfStreamBytesLimit = PARSE_LIMITS.pdfStreamBytes;
    // Also by the patch: getTextContent reports what a page paints besides text (pdf-graphics.ts).
    (globalThis as { __yiduPaintBoxes?: boolean }).__yiduPaintBoxes = true;
    const { WorkerMessageHandler } = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    const port = new InThreadPort();
    WorkerMessageHandler.initializeFromPort(port);
    // Errors only, as each document asks (`verbosity: 0`): the worker side answers to its worker's level.
    const worker = pdfjs.PDFWorker.create({ port: port as unknown as Worker, verbosity: pdfjs.VerbosityLevel.ERRORS });
    await worker.promise;
    return { worker, port };
  })();
  return shared;
}
