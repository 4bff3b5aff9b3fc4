/**
 * A parse process: started by ParseHost (parse-host.ts) with a V8 heap limit, it parses one book at
 * a time and sends it back in pieces (protocol.ts). Whatever a hostile file does here — exhaust the
 * heap, spin, crash a native library — happens outside the API's process; the host sees this
 * process end and fails that one upload with fileTooComplex.
 */
import { detectBookLanguage } from '../../language/detect.ts';
import { collectGarbage } from '../../../lib/collect-garbage.ts';
import { disposeSharedOcrEngine } from '../../ocr/tesseract.ts';
import { isStorageFull } from '../../storage/disk.ts';
import { isParseError } from '../errors.ts';
import { warmUpPdfJs } from '../pdf/pdf-text.ts';
import { disposePdfThreads } from '../pdf/pdf-threads.ts';
import { parseBook } from '../registry.ts';
import { renderPendingCrops } from '../pdf/pdf.ts';
import { bookMessages, imageMessages, type ChildMessage, type HostMessage } from './protocol.ts';

const PROGRESS_INTERVAL_MS = 500;

function send(message: ChildMessage): Promise<void> {
  return new Promise((resolve, reject) =>
    process.send!(message, undefined, {}, (error) => (error ? reject(error) : resolve())),
  );
}

/** The pieces of the file of the next parse. */
let pieces: Uint8Array[] = [];
/** The parsed book's messages not yet asked for: the host takes them one 'next' at a time. */
let outgoing: Generator<ChildMessage> | undefined;

async function parse({ options }: Extract<HostMessage, { type: 'parse' }>): Promise<void> {
  const input = Buffer.concat(pieces);
  pieces = [];
  let lastProgress = 0;
  try {
    const book = await parseBook(input, {
      forceOCR: options.forceOCR,
      autoSplitFootnote: options.autoSplitFootnote,
      ocrLanguages: options.ocrLanguages,
      pdfHelperThreads: options.pdfHelperThreads,
      pdfCropsInParse: options.pdfCropsInParse,
      signal: AbortSignal.timeout(options.timeoutMs),
      handOverInput: true,
      onProgress: (fraction) => {
        const now = Date.now();
        if (now - lastProgress < PROGRESS_INTERVAL_MS) return;
        lastProgress = now;
        void send({ type: 'progress', fraction }).catch(() => undefined);
      },
    });
    // The head now; every further piece when the host asks, so that it never holds more than one.
    outgoing = bookMessages(book, detectBookLanguage(book));
    await sendNext();
  } catch (error) {
    await sendFailure(error);
  }
}

/** Renders figures a parse of this PDF left for later; their images then go as a book's do. */
async function crop({ crops, timeoutMs }: Extract<HostMessage, { type: 'crop' }>): Promise<void> {
  const input = Buffer.concat(pieces);
  pieces = [];
  try {
    const images = await renderPendingCrops(input, crops, AbortSignal.timeout(timeoutMs));
    outgoing = (function* (): Generator<ChildMessage> {
      yield { type: 'cropped' };
      yield* imageMessages(images.filter((image) => image !== undefined));
    })();
    await sendNext();
  } catch (error) {
    await sendFailure(error);
  }
}

/** Tells the host why a parse or crop failed, by the key the user will be told. */
async function sendFailure(error: unknown): Promise<void> {
  const key = isParseError(error) ? error.key : isStorageFull(error) ? 'storageFull' : 'internalError';
  await send({ type: 'failed', key, message: String((error as Error)?.message ?? error).slice(0, 500) });
  collectGarbage();
}

async function sendNext(): Promise<void> {
  const next = outgoing?.next();
  if (next && !next.done) return send(next.value);
  outgoing = undefined;
  await send({ type: 'done' });
  collectGarbage();
}

async function shutDown(): Promise<void> {
  await Promise.allSettled([disposeSharedOcrEngine(), disposePdfThreads()]);
  process.exit(0);
}

if (!process.send) throw new Error('parse-child.ts runs as a child process started by ParseHost');
// The host gone (killed, crashed): nothing is left to parse for.
process.on('disconnect', () => void shutDown());
process.on('message', (message: HostMessage) => {
  if (message.type === 'input') pieces.push(message.piece);
  else if (message.type === 'parse') void parse(message);
  else if (message.type === 'crop') void crop(message);
  else if (message.type === 'next') void sendNext().catch(() => undefined);
  else if (message.type === 'drop') {
    outgoing = undefined;
    collectGarbage();
  }
});
// pdf.js takes 0.2-0.5 s to load and compile: paid now rather than by the first PDF.
warmUpPdfJs().catch(() => undefined);
