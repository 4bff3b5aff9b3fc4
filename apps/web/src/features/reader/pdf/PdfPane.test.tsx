import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { PdfPane, type PaneTarget } from './PdfPane.tsx';
import type { PdfRegion } from './geometry.ts';

/** An A4 document of `numPages` pages as pdf.js gives it; its renders finish at once and are counted. */
function fakeDocument(numPages: number) {
  const rendered: number[] = [];
  const doc = {
    numPages,
    getPage: async (n: number) => ({
      rotate: 0,
      getViewport: ({ scale, rotation = 0 }: { scale: number; rotation?: number }) =>
        rotation % 180 === 0
          ? { width: 595 * scale, height: 842 * scale }
          : { width: 842 * scale, height: 595 * scale },
      render: () => {
        rendered.push(n);
        return { promise: Promise.resolve(), cancel: () => undefined };
      },
    }),
  };
  return { doc: doc as unknown as PDFDocumentProxy, rendered };
}

const PANE = { width: 619, height: 800 };
const scroller = () => document.querySelector<HTMLDivElement>('.yd-pdf-scroll')!;
const slots = () => [...document.querySelectorAll<HTMLElement>('.yd-pdf-page')];
const slot = (page: number) => document.querySelector<HTMLElement>(`.yd-pdf-page[data-pdf-page="${page}"]`)!;
const px = (value: string) => Number.parseFloat(value);

beforeEach(() => {
  // jsdom lays nothing out: the pane is 619 × 800, a page is as large as its style says.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('yd-pdf-scroll') ? PANE.height : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('yd-pdf-scroll') ? PANE.width : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const width = px(this.style.width) || 0;
    const height = px(this.style.height) || 0;
    return { left: 0, top: 0, x: 0, y: 0, width, height, right: width, bottom: height, toJSON: () => ({}) };
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

async function renderPane(props: Partial<Parameters<typeof PdfPane>[0]> & { doc: PDFDocumentProxy }) {
  const onSettled = vi.fn();
  const onPageClick = vi.fn();
  const view = render(
    <PdfPane target={null} outline={[]} onSettled={onSettled} onPageClick={onPageClick} {...props} />,
  );
  await screen.findAllByText((_, el) => el?.classList.contains('yd-pdf-page') ?? false);
  return { ...view, onSettled, onPageClick };
}

const scrollPaneTo = (top: number) =>
  act(() => {
    scroller().scrollTop = top;
    fireEvent.scroll(scroller());
  });

describe('the page view of a long PDF', () => {
  it('gives a canvas only to the pages in view: 600 pages, a handful of canvases, wherever it is', async () => {
    const { doc, rendered } = fakeDocument(600);
    await renderPane({ doc });
    // Fitted to the pane's width (595 pt in 619 px less margins: scale 1), so about one page in view.
    expect(slots().length).toBeLessThanOrEqual(3);
    await vi.waitFor(() => expect(document.querySelectorAll('canvas').length).toBeGreaterThan(0));
    expect(document.querySelectorAll('canvas').length).toBeLessThanOrEqual(3);

    const page300 = px(slot(2).style.top) + 298 * (px(slot(2).style.top) - px(slot(1).style.top));
    scrollPaneTo(page300);
    const shown = slots().map((s) => Number(s.dataset.pdfPage));
    expect(shown).toContain(300);
    expect(shown.length).toBeLessThanOrEqual(4);
    await vi.waitFor(() => expect(rendered).toContain(300));
    expect(document.querySelectorAll('canvas').length).toBeLessThanOrEqual(4);
    expect(new Set(rendered).size).toBeLessThan(10);
    expect(screen.getByText('Page 300 of 600')).toBeTruthy();
  });

  it('outlines a region where it lies, at every zoom and after a turn', async () => {
    const { doc } = fakeDocument(3);
    const region: PdfRegion = { page: 1, x: 0.1, y: 0.2, w: 0.35, h: 0.1 };
    await renderPane({ doc, outline: [region, { ...region, page: 2 }] });
    const outline = () => slot(1).querySelector<HTMLElement>('.yd-pdf-outline')!;
    const pageBox = () => ({ width: px(slot(1).style.width), height: px(slot(1).style.height) });
    const expectAt = (x: number, y: number, w: number, h: number) => {
      const { width, height } = pageBox();
      expect(px(outline().style.left)).toBeCloseTo(x * width, 0);
      expect(px(outline().style.top)).toBeCloseTo(y * height, 0);
      expect(px(outline().style.width)).toBeCloseTo(w * width, 0);
      expect(px(outline().style.height)).toBeCloseTo(h * height, 0);
    };
    expectAt(0.1, 0.2, 0.35, 0.1);
    const fitted = pageBox().width;

    fireEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(pageBox().width).toBeCloseTo(fitted * 1.25, 0);
    expectAt(0.1, 0.2, 0.35, 0.1);
    fireEvent.click(screen.getByRole('button', { name: 'Zoom out' }));
    fireEvent.click(screen.getByRole('button', { name: 'Zoom out' }));
    expect(pageBox().width).toBeCloseTo(fitted / 1.25, 0);
    expectAt(0.1, 0.2, 0.35, 0.1);

    // Turned a quarter clockwise: the page is landscape, the left column's paragraph near its top right.
    fireEvent.click(screen.getByRole('button', { name: 'Rotate pages' }));
    expect(pageBox().width).toBeGreaterThan(pageBox().height);
    expectAt(1 - 0.2 - 0.1, 0.1, 0.1, 0.35);
    fireEvent.click(screen.getByRole('button', { name: 'Fit width' }));
    expect(pageBox().width).toBeCloseTo(PANE.width - 24, 0);
    expectAt(0.7, 0.1, 0.1, 0.35);
    expect(slot(2).querySelectorAll('.yd-pdf-outline')).toHaveLength(1);
    expect(slot(3).querySelectorAll('.yd-pdf-outline')).toHaveLength(0);
  });

  it('tells where a page was clicked, in fractions of the upright page', async () => {
    const { doc } = fakeDocument(2);
    const { onPageClick } = await renderPane({ doc });
    const { width, height } = { width: px(slot(1).style.width), height: px(slot(1).style.height) };
    fireEvent.click(slot(1), { clientX: width * 0.25, clientY: height * 0.5 });
    expect(onPageClick).toHaveBeenLastCalledWith(1, expect.closeTo(0.25, 3), expect.closeTo(0.5, 3));
    fireEvent.click(screen.getByRole('button', { name: 'Rotate pages' }));
    const turnedWidth = px(slot(1).style.width);
    const turnedHeight = px(slot(1).style.height);
    // Near the top right of the turned page is near the top left of the upright one.
    fireEvent.click(slot(1), { clientX: turnedWidth * 0.9, clientY: turnedHeight * 0.1 });
    expect(onPageClick).toHaveBeenLastCalledWith(1, expect.closeTo(0.1, 3), expect.closeTo(0.1, 3));
  });

  it('follows the text without answering back, and tells when the reader scrolled the pages', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { doc } = fakeDocument(40);
    const view = await renderPane({ doc });
    const first = px(slot(1).style.top);
    const step = px(slot(2).style.top) - first;
    const pageTop = (n: number) => first + (n - 1) * step;

    // The text asks for page 12: the pane goes there, and does not report it as the reader's scrolling.
    const target: PaneTarget = { pdfPage: 12, region: null, seq: 1 };
    view.rerender(
      <PdfPane doc={doc} target={target} outline={[]} onSettled={view.onSettled} onPageClick={view.onPageClick} />,
    );
    expect(scroller().scrollTop).toBeCloseTo(pageTop(12) - 6, 0);
    fireEvent.scroll(scroller());
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(view.onSettled).not.toHaveBeenCalled();

    // A region already in view is not scrolled to; one out of view is brought to the upper part.
    const inView: PaneTarget = { pdfPage: 12, region: { page: 12, x: 0.1, y: 0.1, w: 0.3, h: 0.1 }, seq: 2 };
    view.rerender(
      <PdfPane doc={doc} target={inView} outline={[]} onSettled={view.onSettled} onPageClick={view.onPageClick} />,
    );
    expect(scroller().scrollTop).toBeCloseTo(pageTop(12) - 6, 0);
    const below: PaneTarget = { pdfPage: 12, region: { page: 12, x: 0.1, y: 0.9, w: 0.3, h: 0.05 }, seq: 3 };
    view.rerender(
      <PdfPane doc={doc} target={below} outline={[]} onSettled={view.onSettled} onPageClick={view.onPageClick} />,
    );
    const height = px(slot(12).style.height);
    expect(scroller().scrollTop).toBeCloseTo(pageTop(12) + 0.9 * height - 0.15 * PANE.height, 0);
    fireEvent.scroll(scroller());

    // The reader scrolls to page 20 and stops: reported once, after the scrolling rests.
    scrollPaneTo(pageTop(20) + 10);
    scrollPaneTo(pageTop(20) + 20);
    expect(view.onSettled).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(view.onSettled).toHaveBeenCalledTimes(1);
    expect(view.onSettled).toHaveBeenCalledWith(20);
  });

  it('keeps the place being read through a zoom', async () => {
    const { doc } = fakeDocument(30);
    await renderPane({ doc });
    const pageTop = (n: number) => px(slot(n).style.top);
    const step = () => px(slots()[1]!.style.top) - px(slots()[0]!.style.top);
    scrollPaneTo(px(slot(1).style.top) + 9 * step() + 100);
    const before = (scroller().scrollTop - pageTop(10)) / px(slot(10).style.height);
    fireEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    fireEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    const after = (scroller().scrollTop - pageTop(10)) / px(slot(10).style.height);
    expect(after).toBeCloseTo(before, 2);
    expect(screen.getByText('Page 10 of 30')).toBeTruthy();
  });
});
