// pdfjs-dist ships no types for its worker module; this covers what pdfjs-port.ts uses.
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  /** Sets pdf.js's worker side up on a port both sides talk through. */
  export const WorkerMessageHandler: { initializeFromPort(port: unknown): void };
}
