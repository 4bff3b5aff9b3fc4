import { getDocument, GlobalWorkerOptions, PDFDataRangeTransport, type PDFDocumentLoadingTask } from 'pdfjs-dist';
// The worker is a file of our own origin (the content security policy allows scripts from nowhere else).
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

GlobalWorkerOptions.workerSrc = workerUrl;

/**
 * Bytes asked for at a time. pdf.js joins neighbouring chunks it lacks into one request; a page of a
 * paper needs its fonts and content streams (tens to hundreds of kB), so chunks of 128 kB take few
 * round trips without fetching much more than the page (bench/pdf-first-page.ts).
 */
export const RANGE_CHUNK_BYTES = 128 * 1024;

const assets = `${import.meta.env.BASE_URL}pdfjs/`;

/** The stored file: its size, and its signed URL (which expires, so it is asked for when needed). */
export interface OriginalSource {
  size: number;
  /** The URL to read from now. */
  url: () => Promise<string>;
  /** A fresh URL, when the one used was refused (expired while the book was open). */
  renew: () => Promise<string>;
}

/**
 * Reads byte ranges of the signed URL for pdf.js. The URL is read at each request, so a URL renewed
 * while the book is open is used by the next range without opening the document again; a refused
 * range is asked once more with a fresh URL. A range that cannot be had (the book was taken away)
 * ends the document through `onFailure`.
 */
export class SignedRangeTransport extends PDFDataRangeTransport {
  private readonly source: OriginalSource;
  private readonly onFailure: (error: unknown) => void;
  private readonly aborter = new AbortController();
  constructor(source: OriginalSource, onFailure: (error: unknown) => void) {
    super(source.size, null);
    this.source = source;
    this.onFailure = onFailure;
  }

  override requestDataRange(begin: number, end: number): void {
    void this.load(begin, end, false);
  }

  private async load(begin: number, end: number, renewed: boolean): Promise<void> {
    let bytes: Uint8Array;
    try {
      const url = renewed ? await this.source.renew() : await this.source.url();
      const response = await fetch(url, {
        headers: { range: `bytes=${begin}-${end - 1}` },
        signal: this.aborter.signal,
      });
      if (response.status === 404 && !renewed) return this.load(begin, end, true);
      if (response.status !== 206 && response.status !== 200) throw new Error(`HTTP ${response.status}`);
      bytes = new Uint8Array(await response.arrayBuffer());
      // A server may answer a range with the whole file.
      if (response.status === 200) bytes = bytes.subarray(begin, end);
    } catch (error) {
      if (!this.aborter.signal.aborted) this.onFailure(error);
      return;
    }
    try {
      this.onDataRange(begin, bytes);
    } catch {
      // pdf.js stopped waiting for this range (its page's rendering was cancelled).
    }
  }

  override abort(): void {
    this.aborter.abort();
  }
}

/**
 * Opens a stored PDF by HTTP range requests: pdf.js reads the file's end (its cross-reference table),
 * then only the objects of the pages it renders; nothing is fetched ahead (disableAutoFetch) and
 * nothing is streamed from the start of the file (disableStream), so a 30 MB file's first page shows
 * without the rest. No eval (isEvalSupported: false) and no WebAssembly: the content security policy
 * allows neither, and pdf.js has JavaScript decoders for what WebAssembly would do.
 */
export function openPdf(source: OriginalSource, onFailure: (error: unknown) => void): PDFDocumentLoadingTask {
  return getDocument({
    range: new SignedRangeTransport(source, onFailure),
    length: source.size,
    rangeChunkSize: RANGE_CHUNK_BYTES,
    disableAutoFetch: true,
    disableStream: true,
    isEvalSupported: false,
    useWasm: false,
    enableXfa: false,
    cMapUrl: `${assets}cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `${assets}standard_fonts/`,
    wasmUrl: `${assets}wasm/`,
  });
}
