import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PageBlock, PageData, PdfRegion } from '@yidu/shared/reader';
import { errorMessage } from '../../../api/errors.ts';
import { readerApi } from '../../../api/reader.ts';
import { blockDomId } from '../PageView.tsx';
import { PdfPane, type PaneTarget } from './PdfPane.tsx';
import { blockAt, firstBlockOn, holdsPdfPage, placeOf, regionsOf } from './sync.ts';
import { blockInView, firstBlockInView } from './textPosition.ts';
import { usePdfDocument } from './usePdfDocument.ts';

/** After the pages moved the text, its own movements are not sent back to the pages for this long. */
const TEXT_DRIVEN_MS = 1200;
/** The text scrolled: the pages follow once it has rested this long. */
const TEXT_SETTLE_MS = 200;

/** The pages could not be placed in the text this time (offline, the book taken away): nothing moves. */
const quietly = (error: unknown) => console.warn('The page view could not follow', error);

export interface OriginalPageViewProps {
  bookCode: string;
  data: PageData | undefined;
  goTo: (page: number, blockId?: string | null, options?: { flash?: boolean }) => void;
  /** The paragraph the reader clicked in the text (a new object for each click). */
  focus: { blockId: string } | null;
  /** The text is on screen beside the pages (false: the pages replace it, on phones). */
  textShown: boolean;
  textRef: RefObject<HTMLElement | null>;
  /** Where the text was when the pages replaced it. */
  startBlockId: string | null;
  /** The block the pages moved the text to, for when the text is shown again. */
  onTextPlace: (blockId: string) => void;
}

/**
 * The original pages of a PDF book beside (or instead of) the reflowed text, each following the
 * other: the first paragraph of the text in view brings its place on the pages into view; pages
 * scrolled to bring the text to the reader page and paragraph where they begin; a paragraph clicked
 * in the text is outlined on its page, and a click on a page brings the paragraph under it into view.
 */
export default function OriginalPageView(props: OriginalPageViewProps) {
  const { bookCode, data, goTo, focus, textShown, textRef, startBlockId, onTextPlace } = props;
  const { t } = useTranslation();
  const client = useQueryClient();
  const { doc, error, retry } = usePdfDocument(bookCode);
  const [target, setTarget] = useState<PaneTarget | null>(null);
  /** The paragraph outlined on the pages, and where it stands. */
  const [outlined, setOutlined] = useState<{ blockId: string; regions: PdfRegion[] } | null>(null);
  const seq = useRef(0);
  const dataRef = useRef(data);
  dataRef.current = data;
  /** The text is on its way to (or has just reached) a place the pages asked for. */
  const driven = useRef<{ page: number; since: number; arrived: number | null } | null>(null);

  const textIsDriven = () => {
    const d = driven.current;
    if (!d) return false;
    return d.arrived === null ? Date.now() - d.since < 15_000 : Date.now() - d.arrived < TEXT_DRIVEN_MS;
  };
  const driveText = (page: number, blockId: string | null, flash: boolean) => {
    const now = Date.now();
    driven.current = { page, since: now, arrived: dataRef.current?.page === page ? now : null };
    if (blockId) onTextPlace(blockId);
    goTo(page, blockId, { flash });
  };

  const show = useCallback((block: PageBlock) => {
    const place = placeOf(block);
    if (place) setTarget({ pdfPage: place.pdfPage, region: place.region, seq: ++seq.current });
  }, []);

  // The text → the pages: its first paragraph in view, when a page opens and when its scrolling rests.
  const page = data?.page;
  useEffect(() => {
    if (page === undefined) return;
    if (driven.current?.page === page && driven.current.arrived === null) driven.current.arrived = Date.now();
    const follow = () => {
      const blocks = dataRef.current?.blocks ?? [];
      if (textIsDriven() || blocks.length === 0) return;
      const id = textShown ? firstBlockInView(textRef.current) : startBlockId;
      show(blocks.find((b) => b.id === id) ?? blocks[0]!);
    };
    const first = setTimeout(follow, 0);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onScroll = () => {
      clearTimeout(timer);
      timer = setTimeout(follow, TEXT_SETTLE_MS);
    };
    if (textShown) window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      clearTimeout(first);
      clearTimeout(timer);
      window.removeEventListener('scroll', onScroll);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- per page and layout, not per translation arriving
  }, [page, textShown, show]);

  // A paragraph clicked in the text: outlined on its page, brought into view.
  useEffect(() => {
    const block = focus && dataRef.current?.blocks.find((b) => b.id === focus.blockId);
    if (!block) return;
    setOutlined({ blockId: block.id, regions: regionsOf(block) });
    show(block);
  }, [focus, show]);

  /** The pages → the text: the reader page and paragraph where a PDF page begins. */
  const onSettled = async (pdfPage: number) => {
    const current = dataRef.current;
    if (!current || textIsDriven()) return;
    if (holdsPdfPage(current.blocks, pdfPage)) {
      const block = firstBlockOn(current.blocks, pdfPage);
      if (block && (!textShown || !blockInView(block.id))) {
        driven.current = { page: current.page, since: Date.now(), arrived: Date.now() };
        onTextPlace(block.id);
        document.getElementById(blockDomId(block.id))?.scrollIntoView?.({ block: 'center' });
      }
      return;
    }
    const place = await client.fetchQuery({
      queryKey: ['pdfLocate', bookCode, pdfPage],
      queryFn: () => readerApi.pdfLocate({ bookCode, pdfPage }),
      staleTime: Number.POSITIVE_INFINITY,
    });
    driveText(place.page, place.blockId, false);
  };

  /** A click on a page: the paragraph under it, outlined and brought into view in the text. */
  const onPageClick = async (pdfPage: number, x: number, y: number) => {
    const current = dataRef.current;
    const here = current && blockAt(current.blocks, pdfPage, x, y);
    if (current && here) {
      setOutlined({ blockId: here.id, regions: regionsOf(here) });
      driveText(current.page, here.id, true);
      return;
    }
    const place = await readerApi.pdfLocate({ bookCode, pdfPage, x, y });
    if (!place.blockId) return;
    setOutlined({ blockId: place.blockId, regions: place.pdfRegions ?? [] });
    driveText(place.page, place.blockId, true);
  };

  const outline = outlined?.regions ?? [];
  // The paragraph outlined on the pages is marked in the text too (its element is PageView's).
  const pairedId = outlined && /^[\w-]+$/.test(outlined.blockId) ? blockDomId(outlined.blockId) : null;

  return (
    <section className="yd-pdf-pane" aria-label={t('originalPage.pages')}>
      {pairedId && <style>{`#${pairedId} { box-shadow: -9px 0 0 -6px #d4572a; }`}</style>}
      {error ? (
        <Result
          status="warning"
          title={t('originalPage.failed')}
          subTitle={errorMessage(error)}
          extra={<Button onClick={retry}>{t('reader.tryAgain')}</Button>}
        />
      ) : doc ? (
        <PdfPane
          doc={doc}
          target={target}
          outline={outline}
          onSettled={(p) => onSettled(p).catch(quietly)}
          onPageClick={(p, x, y) => onPageClick(p, x, y).catch(quietly)}
        />
      ) : (
        <div className="yd-pdf-loading" role="status" aria-label={t('originalPage.loading')}>
          <Spin />
        </div>
      )}
    </section>
  );
}
