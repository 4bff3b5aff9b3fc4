import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { Spin } from 'antd';
import {
  fitWidthScale,
  layoutPages,
  pageAt,
  pagesInView,
  pointOnPage,
  regionBox,
  rotateRegion,
  turned,
  type PdfRegion,
  type Rotation,
  type Size,
} from './geometry.ts';
import { PdfPageCanvas } from './PdfPageCanvas.tsx';
import { PdfToolbar } from './PdfToolbar.tsx';

/** Space between pages and around them, CSS pixels. */
const GAP = 12;
/** The reader's scrolling must rest this long before the text follows the page view. */
const SETTLE_MS = 250;
/** Pages rendered beyond those in view, above and below. */
const OVERSCAN = 1;
const ZOOM_STEP = 1.25;
const MIN_SCALE = 0.25;
const MAX_SCALE = 5;

/** A place for the page view to show: a page, and a region of it (fractions of the page) or its top. */
export interface PaneTarget {
  pdfPage: number;
  region: PdfRegion | null;
  /** A new number for each request, so the same place can be asked for again. */
  seq: number;
}

interface PdfPaneProps {
  doc: PDFDocumentProxy;
  target: PaneTarget | null;
  /** Regions outlined on the pages (the paragraph the reader picked). */
  outline: PdfRegion[];
  /** The reader scrolled the pages (not the page view following the text) and stopped on this page. */
  onSettled: (pdfPage: number) => void;
  /** A click on a page, at this point of it (fractions of the page before any turning). */
  onPageClick: (pdfPage: number, x: number, y: number) => void;
}

/**
 * The original pages, one under the other, at a zoom (fit to width, or the reader's) and a turn. Only
 * the pages in view (and one each side) have a canvas: a 600-page book has a handful. Zooming and
 * turning keep the place being read where it was.
 */
export function PdfPane(props: PdfPaneProps) {
  const { doc, target, outline, onSettled, onPageClick } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 0, width: 0 });
  const [zoom, setZoom] = useState<number | 'fit'>('fit');
  const [rotation, setRotation] = useState<Rotation>(0);
  const [sizes, setSizes] = useState<Size[] | null>(null);

  // Page 1's size stands for every page until each is read (most documents have one page size).
  useEffect(() => {
    let alive = true;
    void doc.getPage(1).then((page) => {
      const { width, height } = page.getViewport({ scale: 1 });
      if (alive) setSizes(Array.from({ length: doc.numPages }, () => ({ width, height })));
    });
    return () => {
      alive = false;
    };
  }, [doc]);
  const onSize = useCallback((pageNumber: number, size: Size) => {
    setSizes((old) => {
      const known = old?.[pageNumber - 1];
      if (!old || !known || (Math.abs(known.width - size.width) < 0.5 && Math.abs(known.height - size.height) < 0.5))
        return old;
      const copy = old.slice();
      copy[pageNumber - 1] = size;
      return copy;
    });
  }, []);

  const shown = useMemo(() => sizes?.map((s) => turned(s, rotation)) ?? null, [sizes, rotation]);
  const widest = useMemo(() => (shown ? Math.max(...shown.map((s) => s.width)) : 1), [shown]);
  const fit = fitWidthScale(widest, view.width, GAP);
  const scale = zoom === 'fit' ? fit : zoom;
  const layout = useMemo(() => (shown ? layoutPages(shown, scale, GAP) : null), [shown, scale]);

  // The place being read, kept through zooms, turns and pages whose real size arrives.
  const anchor = useRef<{ index: number; fraction: number } | null>(null);
  /** The scrollTop this component set last: the scroll event it causes is not the reader's. */
  const ownScroll = useRef<number | null>(null);
  const settleTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const layoutRef = useRef(layout);
  layoutRef.current = layout;

  const scrollTo = (top: number) => {
    const element = scroller.current;
    if (!element) return;
    const before = element.scrollTop;
    element.scrollTop = Math.max(0, top);
    // Browsers clamp it; no event comes when nothing moved.
    ownScroll.current = element.scrollTop === before ? null : element.scrollTop;
    setView((v) => ({ ...v, top: element.scrollTop }));
  };

  const measure = useCallback(() => {
    const element = scroller.current;
    if (element) setView({ top: element.scrollTop, height: element.clientHeight, width: element.clientWidth });
  }, []);
  useLayoutEffect(() => {
    measure();
    const element = scroller.current;
    if (!element) return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [measure]);

  const currentPage = (lay: NonNullable<typeof layout>, top: number, height: number) =>
    pageAt(lay, top + height * 0.3) + 1;

  const remember = (lay: NonNullable<typeof layout>, top: number) => {
    const index = pageAt(lay, top);
    anchor.current = { index, fraction: (top - lay.tops[index]!) / Math.max(1, lay.heights[index]!) };
  };

  const onScroll = () => {
    const element = scroller.current;
    const lay = layoutRef.current;
    if (!element || !lay) return;
    const top = element.scrollTop;
    setView((v) => (v.top === top ? v : { ...v, top }));
    remember(lay, top);
    if (ownScroll.current !== null && Math.abs(top - ownScroll.current) < 2) {
      ownScroll.current = null;
      return;
    }
    ownScroll.current = null;
    clearTimeout(settleTimer.current);
    const height = element.clientHeight;
    settleTimer.current = setTimeout(() => {
      const now = layoutRef.current;
      if (now) onSettled(currentPage(now, scroller.current?.scrollTop ?? top, height));
    }, SETTLE_MS);
  };
  useEffect(() => () => clearTimeout(settleTimer.current), []);

  // A new layout (zoom, turn, a page's real size): back to the place being read.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!layout || !element || !anchor.current) return;
    const { index, fraction } = anchor.current;
    const top = layout.tops[index]! + fraction * layout.heights[index]!;
    if (Math.abs(element.scrollTop - top) > 1) scrollTo(top);
  }, [layout]);

  // A place asked for by the text: go there unless it is in view already.
  const pending = useRef<PaneTarget | null>(null);
  if (target && target !== pending.current) pending.current = target;
  const applied = useRef<number | null>(null);
  useLayoutEffect(() => {
    const element = scroller.current;
    const wanted = pending.current;
    if (!layout || !element || !wanted || applied.current === wanted.seq) return;
    applied.current = wanted.seq;
    const index = Math.min(Math.max(0, wanted.pdfPage - 1), layout.tops.length - 1);
    const pageTop = layout.tops[index]!;
    const pageHeight = layout.heights[index]!;
    const viewTop = element.scrollTop;
    const viewBottom = viewTop + element.clientHeight;
    if (wanted.region) {
      const r = rotateRegion(wanted.region, rotation);
      const top = pageTop + r.y * pageHeight;
      const bottom = pageTop + (r.y + r.h) * pageHeight;
      if (top >= viewTop && bottom <= viewBottom) return;
      scrollTo(top - element.clientHeight * 0.15);
    } else {
      if (currentPage(layout, viewTop, element.clientHeight) === index + 1) return;
      scrollTo(pageTop - GAP / 2);
    }
    remember(layout, element.scrollTop);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on a new target, or when the layout first exists
  }, [target?.seq, layout !== null]);

  const inView = layout ? pagesInView(layout, view.top, view.height) : { first: 0, last: -1 };
  const first = Math.max(0, inView.first - OVERSCAN);
  const last = layout ? Math.min(layout.tops.length - 1, inView.last + OVERSCAN) : -1;
  const innerWidth = layout ? Math.max(view.width, Math.max(...layout.widths.slice(first, last + 1), 0) + 2 * GAP) : 0;

  const pages = [];
  for (let i = first; i <= last && layout; i++) {
    const width = layout.widths[i]!;
    const height = layout.heights[i]!;
    const box = { width, height };
    pages.push(
      <div
        key={i}
        className="yd-pdf-page"
        data-pdf-page={i + 1}
        style={{ top: layout.tops[i], left: Math.max(GAP, (innerWidth - width) / 2), width, height }}
        onClick={(event) => {
          const rect = event.currentTarget.getBoundingClientRect();
          const point = pointOnPage(event.clientX - rect.left, event.clientY - rect.top, box, rotation);
          onPageClick(i + 1, point.x, point.y);
        }}
      >
        <PdfPageCanvas doc={doc} pageNumber={i + 1} scale={scale} rotation={rotation} onSize={onSize} />
        {outline
          .filter((r) => r.page === i + 1)
          .map((r, k) => (
            <div key={k} className="yd-pdf-outline" style={regionBox(r, box, rotation)} />
          ))}
      </div>,
    );
  }

  return (
    <div className="yd-pdf-pane-inner">
      <PdfToolbar
        page={layout ? currentPage(layout, view.top, view.height) : 1}
        pageCount={doc.numPages}
        percent={Math.round(scale * 100)}
        fitted={zoom === 'fit'}
        onZoomIn={() => setZoom(Math.min(MAX_SCALE, scale * ZOOM_STEP))}
        onZoomOut={() => setZoom(Math.max(MIN_SCALE, scale / ZOOM_STEP))}
        onFit={() => setZoom('fit')}
        onRotate={() => setRotation((r) => ((r + 90) % 360) as Rotation)}
      />
      <div ref={scroller} className="yd-pdf-scroll" onScroll={onScroll}>
        {layout ? (
          <div className="yd-pdf-pages" style={{ height: layout.total, width: innerWidth }}>
            {pages}
          </div>
        ) : (
          <div className="yd-pdf-loading">
            <Spin />
          </div>
        )}
      </div>
    </div>
  );
}
