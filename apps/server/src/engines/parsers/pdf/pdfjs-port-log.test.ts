/**
 * pdf.js's worker side logs at the level of the worker it was started for, whatever each document
 * asks. Alone in its file: pdf.js keeps that level in a module-wide variable, which any other
 * pdf.js worker started in the same process (the loopback comparison of pdfjs-port.test.ts) sets too.
 */
import { expect, it, vi } from 'vitest';
import { openPdf } from './pdf-text.ts';

it("keeps pdf.js's warnings about a damaged file out of the log", async () => {
  const warn = vi.spyOn(console, 'warn');
  try {
    // No cross-reference table: pdf.js rebuilds it and would warn "Indexing all PDF objects".
    const pdf =
      '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n' +
      'trailer<</Root 1 0 R>>\n%%EOF\n';
    const doc = await openPdf(new TextEncoder().encode(pdf));
    await doc.destroy();
    expect(warn.mock.calls.flat().join('\n')).not.toMatch(/Warning/);
  } finally {
    warn.mockRestore();
  }
});
