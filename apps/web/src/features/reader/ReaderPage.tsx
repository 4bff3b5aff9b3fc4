import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type TouchEvent,
} from 'react';
import { useNavigate, useParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Drawer, Popover, Result, Spin, Tooltip } from 'antd';
import {
  BookFilled,
  BookOutlined,
  FontSizeOutlined,
  LeftOutlined,
  MenuOutlined,
  ProfileOutlined,
  RightOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { BookDetail } from '@yidu/shared/books';
import type { Mark } from '@yidu/shared/marks';
import type { AiAnnotation } from '@yidu/shared/ai';
import { findLanguage } from '@yidu/shared/languages';
import { booksApi } from '../../api/books.ts';
import { errorMessage } from '../../api/errors.ts';
import { readerApi, readerPath, type HighlightStyle, type RestateLevel } from '../../api/reader.ts';
import { bookTabId, useTabs } from '../../stores/tabs.ts';
import { schemeColors, useReaderSettings } from '../../stores/readerSettings.ts';
import { usePageTitle } from '../../shell/usePageTitle.ts';
import { useRenewExpiredMedia } from '../../shell/mediaRenewal.ts';
import { PageView, blockDomId } from './PageView.tsx';
import { SelectionToolbar, type HighlightColor } from './SelectionToolbar.tsx';
import { AiCard, type AiKind, type AiRequest } from './AiCard.tsx';
import type { PanelTab } from './SidePanel.tsx';
import { anchorOfSelection, type SelectionAnchor } from './selection.ts';
import { confirmForSession, isConfirmedForSession, usePaidAction } from './paid.tsx';
import { PageArea } from './PageArea.tsx';
import { confirmPage, pageQueryKey, retryBlocks, setBlockTranslation, usePage } from './usePage.ts';
import { useReaderSettingsSync } from './useReaderSettingsSync.ts';
import { useMediaQuery } from './useMediaQuery.ts';

// Loaded when first opened, so that the first page of a book arrives with less code (form controls,
// the colour picker and the panels' lists are most of it).
const AnnotationModal = lazy(() => import('./AnnotationModal.tsx').then((m) => ({ default: m.AnnotationModal })));
const SidePanel = lazy(() => import('./SidePanel.tsx').then((m) => ({ default: m.SidePanel })));
const JumpPanel = lazy(() => import('./JumpPanel.tsx').then((m) => ({ default: m.JumpPanel })));
const SettingsPanel = lazy(() => import('./SettingsPanel.tsx').then((m) => ({ default: m.SettingsPanel })));
const WrongTranslationModal = lazy(() =>
  import('../glossary/WrongTranslationModal.tsx').then((m) => ({ default: m.WrongTranslationModal })),
);
const loadingPart = <Spin size="small" className="yd-reader-part-loading" />;

/** The last page seen per book in this session, so that switching tabs shows it at once. */
const lastPages = new Map<string, number>();
const POSITION_DELAY_MS = 700;

const langTag = (code: string | null | undefined) => {
  const c = code ? (findLanguage(code)?.code ?? code) : undefined;
  return c === 'jp' ? 'ja' : c === 'zh' ? 'zh-CN' : c;
};

/**
 * /tabs/read/{bookcode}/{language} (SPEC §2.3): arriving without a tab loads the book, adds and activates
 * a tab; with one, activates it and reloads the book (a failure is an error toast). Title: the book name.
 */
export default function ReaderPage() {
  const { bookcode = '', language = '' } = useParams();
  const { t } = useTranslation();
  const { message } = App.useApp();
  const tabId = bookTabId(bookcode);
  const tab = useTabs((s) => s.tabs.find((x) => x.id === tabId));
  const hadTab = useRef(!!tab);
  const client = useQueryClient();
  const detail = useQuery({
    queryKey: ['readerBook', bookcode, language],
    queryFn: () => booksApi.detail(bookcode, language),
    refetchOnMount: 'always',
    retry: false,
  });
  // The position and its page load while the book does (no waterfall): the reader then finds them cached.
  const position = useQuery({
    queryKey: ['readerPosition', bookcode],
    queryFn: () => readerApi.position(bookcode),
    enabled: !lastPages.has(bookcode),
    retry: false,
  });
  const startPage = lastPages.get(bookcode) ?? (position.isSuccess ? (position.data?.page ?? 1) : null);
  useEffect(() => {
    if (startPage === null) return;
    const key = { bookCode: bookcode, language, page: startPage };
    const confirm = isConfirmedForSession(bookcode);
    void client
      .prefetchQuery({
        queryKey: pageQueryKey(key),
        queryFn: ({ signal }) => readerApi.page({ ...key, confirm: confirm || undefined }, signal),
        staleTime: 5 * 60_000,
      })
      .catch(() => undefined);
  }, [client, bookcode, language, startPage]);

  useEffect(() => {
    hadTab.current = !!useTabs.getState().tabs.find((x) => x.id === bookTabId(bookcode));
    if (hadTab.current) useTabs.getState().activate(bookTabId(bookcode));
  }, [bookcode, language]);

  useEffect(() => {
    if (!detail.data) return;
    useTabs
      .getState()
      .addBook({ bookCode: bookcode, name: detail.data.bookName, language, cover: detail.data.coverUrl });
  }, [detail.data, bookcode, language]);

  const failure = detail.error;
  useEffect(() => {
    if (failure && hadTab.current) void message.error(failure.message || errorMessage(failure));
  }, [failure, message]);

  usePageTitle(detail.data?.bookName ?? (tab?.kind === 'book' ? tab.book.name : t('reader.loading')), { bare: true });
  useReaderSettingsSync();

  if (detail.data) return <Reader key={`${bookcode}/${language}`} book={detail.data} language={language} />;
  if (detail.isError) {
    return (
      <Result
        status="warning"
        title={t('reader.openFailed')}
        subTitle={errorMessage(detail.error)}
        extra={
          <Button type="primary" onClick={() => void detail.refetch()}>
            {t('reader.tryAgain')}
          </Button>
        }
      />
    );
  }
  return (
    <div className="yd-reader-loading">
      <Spin />
    </div>
  );
}

interface ReaderProps {
  book: BookDetail;
  language: string;
}

interface SelectionState {
  anchor: SelectionAnchor;
  at: { x: number; y: number } | null;
}

function Reader({ book, language }: ReaderProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const client = useQueryClient();
  const renewExpiredMedia = useRenewExpiredMedia();
  const bookCode = book.bookCode;
  const settings = useReaderSettings((s) => s.settings);
  const wide = useMediaQuery('(min-width: 1100px)');
  const narrow = useMediaQuery('(max-width: 640px)');
  const features = useMemo(() => new Set(book.features), [book.features]);
  const paid = usePaidAction(bookCode);

  // Position: this session's last page, else the server's, else 1.
  const [page, setPage] = useState<number | null>(() => lastPages.get(bookCode) ?? null);
  const position = useQuery({
    queryKey: ['readerPosition', bookCode],
    queryFn: () => readerApi.position(bookCode),
    enabled: page === null,
    retry: false,
    staleTime: 30_000,
  });
  useEffect(() => {
    if (page !== null || position.isPending) return;
    const saved = position.data?.page ?? 1;
    setPage(Math.min(Math.max(1, saved), Math.max(1, book.pageCount)));
  }, [page, position.isPending, position.data, book.pageCount]);

  // Confirmation mode: each page's price is confirmed on its own, unless the reader said not to ask again.
  const [remembered, setRemembered] = useState(() => isConfirmedForSession(bookCode));
  const [confirmedPages, setConfirmedPages] = useState<ReadonlySet<number>>(() => new Set());
  const confirmed = remembered || (page !== null && confirmedPages.has(page));
  const key = page === null ? null : { bookCode, language, page };
  const pageQuery = usePage(key, confirmed);
  const confirmThisPage = (remember: boolean) => {
    if (page === null) return;
    if (remember) {
      confirmForSession(bookCode);
      setRemembered(true);
    }
    setConfirmedPages((old) => new Set(old).add(page));
    void confirmPage(client, { bookCode, language, page });
  };
  const data = pageQuery.data;
  const pageCount = data?.pageCount ?? book.pageCount;

  // Save the position (debounced).
  useEffect(() => {
    if (page === null || !data) return;
    lastPages.set(bookCode, page);
    const timer = setTimeout(() => {
      readerApi
        .savePosition({ bookCode, page, blockId: data.blocks[0]?.id ?? null, language })
        .catch((error: unknown) => console.warn('Saving the position failed', error));
    }, POSITION_DELAY_MS);
    return () => clearTimeout(timer);
  }, [bookCode, page, language, data]);

  // Marks.
  const marksQuery = useQuery({ queryKey: ['readerMarks', bookCode], queryFn: () => readerApi.marks(bookCode) });
  const marks = useMemo(() => marksQuery.data ?? [], [marksQuery.data]);
  const pageMarks = useMemo(() => marks.filter((m) => m.page === page), [marks, page]);
  const bookmark = pageMarks.find((m) => m.kind === 'bookmark');
  const setMarks = (update: (list: Mark[]) => Mark[]) =>
    client.setQueryData<Mark[]>(['readerMarks', bookCode], (old) => update(old ?? []));

  // AI notes, per page.
  const [aiNotes, setAiNotes] = useState<Map<number, AiAnnotation[]>>(new Map());
  const [aiNotesLoading, setAiNotesLoading] = useState(false);

  // Panels and overlays.
  const [tocOpen, setTocOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [panelOpen, setPanelOpen] = useState(false);
  const [panelTab, setPanelTab] = useState<PanelTab>('marks');
  const [jumpOpen, setJumpOpen] = useState(false);
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [flashId, setFlashId] = useState<string | null>(null);
  const [selection, setSelection] = useState<SelectionState | null>(null);
  const [annotating, setAnnotating] = useState<SelectionAnchor | null>(null);
  const [savingAnnotation, setSavingAnnotation] = useState(false);
  const [ai, setAi] = useState<AiRequest | null>(null);
  const [notePop, setNotePop] = useState<{ note: AiAnnotation; x: number; y: number } | null>(null);
  const [wrongBlock, setWrongBlock] = useState<string | null>(null);
  const scrollTarget = useRef<string | null>(null);
  const textRef = useRef<HTMLElement>(null);
  const inlinePanel = settings.mode === 'advanced' && wide;

  const goTo = useCallback(
    (target: number, blockId?: string | null) => {
      const clamped = Math.min(Math.max(1, Math.round(target)), Math.max(1, pageCount));
      scrollTarget.current = blockId ?? null;
      setSelection(null);
      setNotePop(null);
      if (clamped === page && blockId) {
        const element = document.getElementById(blockDomId(blockId));
        element?.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
        setFlashId(blockId);
        scrollTarget.current = null;
        return;
      }
      if (clamped !== page) {
        setPage(clamped);
        setExpanded(new Set());
        if (!blockId) window.scrollTo?.({ top: 0 });
      }
    },
    [page, pageCount],
  );

  // After a jump, bring the block into view and let it glow for a moment.
  useEffect(() => {
    const target = scrollTarget.current;
    if (!target || !data) return;
    const element = document.getElementById(blockDomId(target));
    if (!element) return;
    scrollTarget.current = null;
    element.scrollIntoView?.({ block: 'center' });
    setFlashId(target);
  }, [data]);
  useEffect(() => {
    if (!flashId) return;
    const timer = setTimeout(() => setFlashId(null), 2200);
    return () => clearTimeout(timer);
  }, [flashId]);

  const prev = useCallback(() => page !== null && page > 1 && goTo(page - 1), [page, goTo]);
  const next = useCallback(() => page !== null && page < pageCount && goTo(page + 1), [page, pageCount, goTo]);

  // Keyboard: ←/→ and PgUp/PgDn turn pages.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable=true], .ant-modal, .ant-drawer, .ant-select'))
        return;
      if (event.key === 'ArrowLeft' || event.key === 'PageUp') {
        event.preventDefault();
        prev();
      } else if (event.key === 'ArrowRight' || event.key === 'PageDown') {
        event.preventDefault();
        next();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [prev, next]);

  // Swipe on touch screens.
  const touch = useRef<{ x: number; y: number; at: number } | null>(null);
  const onTouchStart = (event: TouchEvent) => {
    const p = event.touches[0];
    touch.current = p ? { x: p.clientX, y: p.clientY, at: Date.now() } : null;
  };
  const onTouchEnd = (event: TouchEvent) => {
    const start = touch.current;
    const p = event.changedTouches[0];
    touch.current = null;
    if (!start || !p || Date.now() - start.at > 700) return;
    if (window.getSelection()?.isCollapsed === false) return;
    const dx = p.clientX - start.x;
    const dy = p.clientY - start.y;
    if (Math.abs(dx) > 60 && Math.abs(dy) < 50) {
      if (dx < 0) next();
      else prev();
    }
  };

  // Text selection → toolbar.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = () => {
      const current = window.getSelection();
      const anchor = anchorOfSelection(current);
      if (!anchor || !textRef.current?.contains(current!.anchorNode)) {
        setSelection((old) => (old ? null : old));
        return;
      }
      const rect = current!.getRangeAt(0).getBoundingClientRect();
      const at = narrow ? null : { x: rect.left + rect.width / 2, y: Math.max(64, rect.top - 8) };
      setSelection({ anchor, at });
    };
    const onChange = () => {
      clearTimeout(timer);
      timer = setTimeout(read, 180);
    };
    document.addEventListener('selectionchange', onChange);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('selectionchange', onChange);
    };
  }, [narrow]);

  const clearSelection = () => {
    window.getSelection()?.removeAllRanges();
    setSelection(null);
  };

  const anchorBody = (anchor: SelectionAnchor) => ({
    bookCode,
    blockId: anchor.blockId,
    start: anchor.start,
    end: anchor.end,
    quote: anchor.quote.slice(0, 5000),
    inTranslation: anchor.inTranslation,
    language: findLanguage(language)?.code ?? language,
  });

  const addStyled = async (style: HighlightStyle, color: HighlightColor) => {
    if (!selection) return;
    const anchor = selection.anchor;
    clearSelection();
    try {
      const mark = await readerApi.addHighlight(anchorBody(anchor), style, color);
      setMarks((list) => [...list, mark]);
    } catch (error) {
      void message.error(errorMessage(error));
    }
  };

  const copy = async () => {
    if (!selection) return;
    const { quote } = selection.anchor;
    clearSelection();
    try {
      await navigator.clipboard.writeText(quote);
      void message.success(t('reader.selection.copied'));
    } catch {
      void message.warning(t('reader.selection.copyFailed'));
    }
  };

  const saveAnnotation = async (content: string) => {
    if (!annotating) return;
    setSavingAnnotation(true);
    try {
      const mark = await readerApi.addAnnotation(anchorBody(annotating), content);
      setMarks((list) => [...list, mark]);
      setAnnotating(null);
      void message.success(t('reader.annotation.saved'));
    } catch (error) {
      void message.error(t('reader.annotation.failed', { reason: errorMessage(error) }));
    } finally {
      setSavingAnnotation(false);
    }
  };

  const startAi = (kind: AiKind, level: RestateLevel = 'simple') => {
    if (!selection) return;
    const anchor = selection.anchor;
    clearSelection();
    setAi({ id: Date.now(), kind, anchor, level });
  };

  const deleteMark = async (mark: Mark) => {
    try {
      if (mark.kind === 'annotation') await readerApi.deleteAnnotation(mark.id);
      else if (mark.kind === 'bookmark') await readerApi.deleteBookmark(mark.id);
      else await readerApi.deleteHighlight(mark.id);
      setMarks((list) => list.filter((m) => m.id !== mark.id));
    } catch (error) {
      void message.error(errorMessage(error));
    }
  };

  const toggleBookmark = async () => {
    if (page === null) return;
    try {
      if (bookmark) {
        await readerApi.deleteBookmark(bookmark.id);
        setMarks((list) => list.filter((m) => m.id !== bookmark.id));
        void message.success(t('reader.bookmark.removed'));
      } else {
        const mark = await readerApi.addBookmark({ bookCode, page, blockId: data?.blocks[0]?.id });
        setMarks((list) => [...list, mark]);
        void message.success(t('reader.bookmark.added'));
      }
    } catch (error) {
      void message.error(errorMessage(error));
    }
  };

  const exportNotes = async () => {
    try {
      const blob = await readerApi.exportNotes(bookCode);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `${book.bookName.replace(/[\\/:*?"<>|]+/g, ' ').trim() || bookCode}.md`;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (error) {
      void message.error(errorMessage(error));
    }
  };

  const requestAiNotes = async () => {
    if (page === null) return;
    setAiNotesLoading(true);
    try {
      const result = await paid((confirm) => readerApi.annotate({ bookCode, language, page, confirm }));
      if (result) {
        setAiNotes((old) => new Map(old).set(page, result.annotations));
        if (result.charge.charged) void message.success(t('reader.ai.charged', { points: result.charge.points }));
      }
    } finally {
      setAiNotesLoading(false);
    }
  };

  const changeLanguage = (code: string) => {
    if (code === language) return;
    modal.confirm({
      title: t('reader.language.confirmTitle'),
      content: t('reader.language.confirmText'),
      okText: t('reader.language.confirmOk'),
      cancelText: t('common.cancel'),
      onOk: () => {
        setSettingsOpen(false);
        useTabs.getState().addBook({ bookCode, name: book.bookName, language: code, cover: book.coverUrl });
        void navigate(readerPath(bookCode, code));
      },
    });
  };

  const onRetry = useCallback(
    (blockId: string) => {
      if (page === null) return;
      retryBlocks(client, { bookCode, language, page }, [blockId], confirmed).catch((error: unknown) =>
        message.error(errorMessage(error)),
      );
    },
    [client, bookCode, language, page, confirmed, message],
  );
  const onToggleOriginal = useCallback(
    (blockId: string) =>
      setExpanded((old) => {
        const copy = new Set(old);
        if (copy.has(blockId)) copy.delete(blockId);
        else copy.add(blockId);
        return copy;
      }),
    [],
  );
  const onMarkClick = useCallback(
    (mark: Mark) => {
      if (mark.kind === 'annotation') {
        setPanelTab('marks');
        if (!inlinePanel) setPanelOpen(true);
      }
    },
    [inlinePanel],
  );
  const onNoteClick = useCallback((note: AiAnnotation, event: React.MouseEvent<HTMLElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    setNotePop({ note, x: rect.left + rect.width / 2, y: rect.bottom + 6 });
  }, []);
  const onLink = useCallback(
    (target: string) => {
      const element = document.getElementById(blockDomId(target));
      if (element) {
        element.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
        setFlashId(target);
      } else void message.info(t('reader.noteElsewhere'));
    },
    [message, t],
  );

  const colors = schemeColors(settings);
  const style = {
    '--rd-bg': colors.background,
    '--rd-fg': colors.text,
    '--rd-size': `${settings.fontSize}px`,
    '--rd-lh': String(settings.lineHeight),
    '--rd-gap': `${settings.paragraphMargin}px`,
  } as CSSProperties;

  const chapter = data?.chapter;
  const percent = page !== null && pageCount > 0 ? Math.round((page / pageCount) * 100) : 0;
  const pageNotes = page !== null ? aiNotes.get(page) : undefined;

  const panel = (
    <Suspense fallback={loadingPart}>
      <SidePanel
        tab={panelTab}
        onTab={setPanelTab}
        bookCode={bookCode}
        language={language}
        page={page ?? 1}
        features={features}
        marks={marks}
        marksLoading={marksQuery.isPending}
        onJump={(p, blockId) => {
          if (!inlinePanel) setPanelOpen(false);
          goTo(p, blockId);
        }}
        onDelete={(mark) => void deleteMark(mark)}
        onExport={() => void exportNotes()}
        aiNotes={pageNotes}
        aiNotesLoading={aiNotesLoading}
        onRequestAiNotes={() => void requestAiNotes()}
      />
    </Suspense>
  );

  const jump = (
    <Suspense fallback={loadingPart}>
      <JumpPanel
        page={page ?? 1}
        pageCount={pageCount}
        percent={percent}
        onGo={(target) => {
          goTo(target);
          setJumpOpen(false);
        }}
      />
    </Suspense>
  );

  return (
    <div className={`yd-reader${colors.dark ? ' is-dark' : ''} yd-scheme-${settings.scheme}`} style={style}>
      <header className="yd-reader-bar">
        <Tooltip title={t('reader.toc.title')}>
          <Button
            type="text"
            icon={<MenuOutlined />}
            aria-label={t('reader.toc.title')}
            onClick={() => setTocOpen(true)}
          />
        </Tooltip>
        <div className="yd-reader-title">
          <strong>{book.bookName}</strong>
          {chapter?.title && <span>{chapter.title}</span>}
        </div>
        <Tooltip title={bookmark ? t('reader.bookmark.remove') : t('reader.bookmark.add')}>
          <Button
            type="text"
            icon={bookmark ? <BookFilled /> : <BookOutlined />}
            aria-label={bookmark ? t('reader.bookmark.remove') : t('reader.bookmark.add')}
            aria-pressed={!!bookmark}
            className={bookmark ? 'is-on' : undefined}
            onClick={() => void toggleBookmark()}
          />
        </Tooltip>
        {!inlinePanel && (
          <Tooltip title={t('reader.panel.open')}>
            <Button
              type="text"
              icon={<ProfileOutlined />}
              aria-label={t('reader.panel.open')}
              onClick={() => setPanelOpen(true)}
            />
          </Tooltip>
        )}
        {narrow ? (
          <Button
            type="text"
            icon={<FontSizeOutlined />}
            aria-label={t('reader.settings.title')}
            onClick={() => setSettingsOpen(true)}
          />
        ) : (
          <Popover
            trigger="click"
            placement="bottomRight"
            open={settingsOpen}
            onOpenChange={setSettingsOpen}
            content={
              <Suspense fallback={loadingPart}>
                <SettingsPanel language={language} onLanguage={changeLanguage} />
              </Suspense>
            }
          >
            <Button type="text" icon={<FontSizeOutlined />} aria-label={t('reader.settings.title')} />
          </Popover>
        )}
      </header>

      <div className={`yd-reader-body${inlinePanel ? ' has-side' : ''}`}>
        <article
          ref={textRef}
          className="yd-reader-text"
          onTouchStart={onTouchStart}
          onTouchEnd={onTouchEnd}
          aria-busy={pageQuery.isPending}
        >
          <PageArea
            bookCode={bookCode}
            originalLanguage={book.originalLanguage}
            language={language}
            page={page}
            data={data}
            error={pageQuery.error}
            onRetry={() => void pageQuery.refetch()}
            onConfirm={confirmThisPage}
            render={(shown) => (
              <PageView
                data={shown}
                mode={settings.mode}
                originalLang={langTag(book.originalLanguage)}
                targetLang={langTag(language)}
                marks={pageMarks}
                aiNotes={pageNotes ?? []}
                expanded={expanded}
                onToggleOriginal={onToggleOriginal}
                onRetry={onRetry}
                onMarkClick={onMarkClick}
                onNoteClick={onNoteClick}
                onLink={onLink}
                onImageError={renewExpiredMedia}
                onReportWrong={setWrongBlock}
                flashId={flashId}
              />
            )}
          />
          <nav className="yd-pager" aria-label={t('reader.pager')}>
            <Button icon={<LeftOutlined />} onClick={prev} disabled={page === null || page <= 1}>
              <span className="yd-pager-label">{t('reader.prev')}</span>
            </Button>
            <Popover trigger="click" open={jumpOpen} onOpenChange={setJumpOpen} content={jump} destroyOnHidden>
              <button type="button" className="yd-pager-where" aria-label={t('reader.jump.title')}>
                {t('reader.pageOf', { page: page ?? 1, count: pageCount })} · {percent}%
              </button>
            </Popover>
            <Button onClick={next} disabled={page === null || page >= pageCount}>
              <span className="yd-pager-label">{t('reader.next')}</span>
              <RightOutlined />
            </Button>
          </nav>
        </article>
        {inlinePanel && <aside className="yd-reader-side">{panel}</aside>}
      </div>

      <Drawer
        title={t('reader.toc.title')}
        placement="left"
        open={tocOpen}
        onClose={() => setTocOpen(false)}
        size={narrow ? 'default' : 'default'}
        className="yd-reader-drawer"
      >
        {book.chapters.length === 0 ? (
          <p className="yd-muted">{t('reader.toc.empty')}</p>
        ) : (
          <ol className="yd-toc">
            {book.chapters.map((c) => (
              <li key={c.index} style={{ paddingInlineStart: Math.max(0, c.level - 1) * 14 }}>
                <button
                  type="button"
                  className={chapter?.index === c.index ? 'is-current' : undefined}
                  onClick={() => {
                    setTocOpen(false);
                    goTo(c.page);
                  }}
                >
                  <span>{c.title}</span>
                  <small>{c.page}</small>
                </button>
              </li>
            ))}
          </ol>
        )}
      </Drawer>
      {!inlinePanel && (
        <Drawer
          title={t('reader.panel.title')}
          placement={narrow ? 'bottom' : 'right'}
          open={panelOpen}
          onClose={() => setPanelOpen(false)}
          className="yd-reader-drawer"
          styles={{ wrapper: narrow ? { height: '78vh' } : { width: 380 } }}
        >
          {panel}
        </Drawer>
      )}
      {narrow && (
        <Drawer
          title={t('reader.settings.title')}
          placement="bottom"
          open={settingsOpen}
          onClose={() => setSettingsOpen(false)}
          styles={{ wrapper: { height: '80vh' } }}
        >
          <Suspense fallback={loadingPart}>
            <SettingsPanel language={language} onLanguage={changeLanguage} />
          </Suspense>
        </Drawer>
      )}

      {selection && (
        <SelectionToolbar
          at={selection.at}
          features={features}
          onCopy={() => void copy()}
          onHighlight={(color) => void addStyled('highlight', color)}
          onUnderline={() => void addStyled('underline', 'blue')}
          onAnnotate={() => {
            setAnnotating(selection.anchor);
            clearSelection();
          }}
          onAi={startAi}
        />
      )}
      {ai && (
        <AiCard
          request={ai}
          bookCode={bookCode}
          language={language}
          onLevel={(level) => setAi({ ...ai, id: Date.now(), level })}
          onClose={() => setAi(null)}
        />
      )}
      {notePop && (
        <div
          className="yd-note-pop"
          role="dialog"
          aria-label={notePop.note.term}
          style={{ left: notePop.x, top: notePop.y }}
          onMouseLeave={() => setNotePop(null)}
        >
          <strong>{notePop.note.term}</strong>
          <p>{notePop.note.note}</p>
          <Button size="small" type="link" onClick={() => setNotePop(null)}>
            {t('reader.close')}
          </Button>
        </div>
      )}
      {wrongBlock && data && key && (
        <Suspense fallback={null}>
          <WrongTranslationModal
            bookCode={bookCode}
            language={language}
            blockId={wrongBlock}
            original={data.blocks.find((b) => b.id === wrongBlock) ?? { text: '', html: null }}
            onChosen={(blockId, translation) => setBlockTranslation(client, key, blockId, translation)}
            onClose={() => setWrongBlock(null)}
          />
        </Suspense>
      )}
      {annotating && (
        <Suspense fallback={null}>
          <AnnotationModal
            key={`${annotating.blockId}-${annotating.start}`}
            open
            quote={annotating.quote}
            saving={savingAnnotation}
            onSave={(content) => void saveAnnotation(content)}
            onCancel={() => setAnnotating(null)}
          />
        </Suspense>
      )}
    </div>
  );
}
