import { memo, useEffect, useRef, useState } from 'react';
import type { PDFDocumentProxy, PDFPageProxy, RenderTask } from 'pdfjs-dist';
import { canvasPixelRatio, type Rotation, type Size } from './geometry.ts';

/** Canvases larger than this many device pixels are rendered at a lower ratio (memory, and browsers' limits). */
const MAX_CANVAS_PIXELS = 4096 * 4096;

interface PdfPageCanvasProps {
  doc: PDFDocumentProxy;
  pageNumber: number;
  scale: number;
  rotation: Rotation;
  /** The page's own size at scale 1 (with its /Rotate), once read: the layout may have guessed it. */
  onSize: (pageNumber: number, size: Size) => void;
}

/**
 * One page rendered at the screen's pixel ratio. A new zoom or rotation is rendered into a canvas
 * of its own while the old one stays on screen (stretched to the new size), then takes its place:
 * the page never goes blank. `data-rendered` says the canvas shown is the one for the current zoom.
 */
export const PdfPageCanvas = memo(function PdfPageCanvas(props: PdfPageCanvasProps) {
  const { doc, pageNumber, scale, rotation, onSize } = props;
  const holder = useRef<HTMLDivElement>(null);
  const [rendered, setRendered] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const wanted = `${scale}:${rotation}`;

  useEffect(() => {
    let cancelled = false;
    let task: RenderTask | undefined;
    void (async () => {
      let page: PDFPageProxy;
      try {
        page = await doc.getPage(pageNumber);
      } catch {
        if (!cancelled) setFailed(true);
        return;
      }
      if (cancelled) return;
      const natural = page.getViewport({ scale: 1 });
      onSize(pageNumber, { width: natural.width, height: natural.height });
      const turn = (page.rotate + rotation) % 360;
      const css = page.getViewport({ scale, rotation: turn });
      const ratio = canvasPixelRatio(css.width, css.height, window.devicePixelRatio || 1, MAX_CANVAS_PIXELS);
      const viewport = page.getViewport({ scale: scale * ratio, rotation: turn });
      const canvas = document.createElement('canvas');
      canvas.width = Math.max(1, Math.floor(viewport.width));
      canvas.height = Math.max(1, Math.floor(viewport.height));
      canvas.className = 'yd-pdf-canvas';
      task = page.render({ canvas, viewport });
      try {
        await task.promise;
      } catch (error) {
        // Cancelled for a newer zoom; otherwise a page pdf.js cannot draw (it says why in the console).
        if (!cancelled && (error as { name?: string } | null)?.name !== 'RenderingCancelledException') setFailed(true);
        return;
      }
      if (cancelled) return;
      holder.current?.replaceChildren(canvas);
      setFailed(false);
      setRendered(wanted);
    })();
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [doc, pageNumber, scale, rotation, wanted, onSize]);

  return (
    <div
      ref={holder}
      className={`yd-pdf-canvas-holder${failed ? ' is-failed' : ''}`}
      data-rendered={rendered === wanted ? 'true' : 'false'}
    />
  );
});
