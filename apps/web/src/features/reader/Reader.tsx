import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Drawer, Popover, Spin } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { BookDetail } from '@yidu/shared/books';
import type { Mark } from '@yidu/shared/marks';
import type { AiAnnotation } from '@yidu/shared/ai';
import { findLanguage } from '@yidu/shared/languages';
import { errorMessage } from '../../api/errors.ts';
import { readerApi, readerPath, type RestateLevel } from '../../api/reader.ts';
import { useTabs } from '../../stores/tabs.ts';
import { schemeColors, useReaderSettings } from '../../stores/readerSettings.ts';
import { useRenewExpiredMedia } from '../../shell/mediaRenewal.ts';
import { PageView, blockDomId } from './PageView.tsx';
import { SelectionToolbar } from './SelectionToolbar.tsx';
import { AiCard, type AiKind, type AiRequest } from './AiCard.tsx';
import type { PanelTab } from './SidePanel.tsx';
import type { SelectionAnchor } from './selection.ts';
import { confirmForSession, isConfirmedForSession, usePaidAction } from './paid.tsx';
import { PageArea } from './PageArea.tsx';
import { ReaderBar } from './ReaderBar.tsx';
import { TocDrawer } from './TocDrawer.tsx';
import { titleOf } from './contents.ts';
import { confirmPage, retryBlocks, setBlockTranslation, usePage } from './usePage.ts';
import { useMediaQuery } from '../../shell/useMediaQuery.ts';
import { useMarkActions } from './useMarkActions.ts';
import { usePageTurns } from './usePageTurns.ts';
import { useTextSelection } from './useTextSelection.ts';
import { lastPlaces, type Place } from './lastPages.ts';
import { KeepBookButton } from '../keep/KeepBookEntry.tsx';
import type { LookupRequest } from './LookupCard.tsx';
import { ReadAloudBar, ReadAloudControl } from './ReadAloudControl.tsx';
import { useReadAloud } from './useReadAloud.ts';
import { useReadingHeartbeat } from './useReadingHeartbeat.ts';
import { useReadingPlace } from './useReadingPlace.ts';
import { sentenceOfAnchor } from './wordsToLearn.ts';
import { useNotes } from './NoteLayer.tsx';
import { paragraphLinkTarget } from '../offline/paragraphLink.ts';
import { useOriginalPages } from './pdf/useOriginalPages.tsx';

// Loaded when first opened, so that the first page of a book arrives with less code (form controls,
// the colour picker and the panels' lists are most of it).
const AnnotationModal = lazy(() => import('./AnnotationModal.tsx').then((m) => ({ default: m.AnnotationModal })));
const SidePanel = lazy(() => import('./SidePanel.tsx').then((m) => ({ default: m.SidePanel })));
const JumpPanel = lazy(() => import('./JumpPanel.tsx').then((m) => ({ default: m.JumpPanel })));
const SettingsPanel = lazy(() => import('./SettingsPanel.tsx').then((m) => ({ default: m.SettingsPanel })));
const LookupCard = lazy(() => import('./LookupCard.tsx').then((m) => ({ default: m.LookupCard })));
const WrongTranslationModal = lazy(() =>
  import('../glossary/WrongTranslationModal.tsx').then((m) => ({ default: m.WrongTranslationModal })),
);
// Offline reading's parts of the reader, loaded after the page: its download control and the question
// asked when another device read further.
const DownloadControl = lazy(() =>
  import('../offline/DownloadControl.tsx').then((m) => ({ default: m.DownloadControl })),
);
const PositionConflictPrompt = lazy(() =>
  import('../offline/PositionConflictPrompt.tsx').then((m) => ({ default: m.PositionConflictPrompt })),
);
const loadingPart = <Spin size="small" className="yd-reader-part-loading" />;

const langTag = (code: string | null | undefined) => {
  const c = code ? (findLanguage(code)?.code ?? code) : undefined;
  return c === 'jp' ? 'ja' : c === 'zh' ? 'zh-CN' : c;
};

interface ReaderProps {
  book: BookDetail;
  language: string;
}

/** A book open in the reader: its pages, marks, AI aids, panels and settings. */
export function Reader({ book, language }: ReaderProps) {
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

  // Position: this session's last place, else the server's, else page 1.
  const [sessionPlace] = useState(() => lastPlaces.get(bookCode) ?? null);
  const [page, setPage] = useState<number | null>(() => sessionPlace?.page ?? null);
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

  const markActions = useMarkActions(bookCode, language, book.bookName);
  const { marks } = markActions;
  const pageMarks = useMemo(() => marks.filter((m) => m.page === page), [marks, page]);
  const bookmark = pageMarks.find((m) => m.kind === 'bookmark');

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
  const [annotating, setAnnotating] = useState<SelectionAnchor | null>(null);
  const [savingAnnotation, setSavingAnnotation] = useState(false);
  const [ai, setAi] = useState<AiRequest | null>(null);
  const [lookup, setLookup] = useState<LookupRequest | null>(null);
  const [notePop, setNotePop] = useState<{ note: AiAnnotation; x: number; y: number } | null>(null);
  const [wrongBlock, setWrongBlock] = useState<string | null>(null);
  const scrollTarget = useRef<string | null>(null);
  const textRef = useRef<HTMLElement>(null);
  const { selection, setSelection, clearSelection } = useTextSelection(textRef);
  // The place is a paragraph: restored where it was read (another device, another language), saved as it changes.
  const savedPlace: Place | null | undefined =
    sessionPlace ??
    (position.isPending
      ? undefined
      : position.data && {
          page: position.data.page,
          blockId: position.data.blockId,
          blockOffset: position.data.blockOffset,
        });
  const { cancelRestore } = useReadingPlace({ bookCode, language, page, data, textRef, initial: savedPlace });
  /** Whether the block a jump goes to glows when it arrives (not when the page view moved the text). */
  const flashTarget = useRef(true);

  const goTo = useCallback(
    (target: number, blockId?: string | null, options?: { flash?: boolean }) => {
      const clamped = Math.min(Math.max(1, Math.round(target)), Math.max(1, pageCount));
      cancelRestore();
      scrollTarget.current = blockId ?? null;
      flashTarget.current = options?.flash !== false;
      setSelection(null);
      setNotePop(null);
      if (clamped === page && blockId) {
        const element = document.getElementById(blockDomId(blockId));
        element?.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
        if (flashTarget.current) setFlashId(blockId);
        scrollTarget.current = null;
        return;
      }
      if (clamped !== page) {
        setPage(clamped);
        setExpanded(new Set());
        if (!blockId) window.scrollTo?.({ top: 0 });
      }
    },
    [page, pageCount, setSelection, cancelRestore],
  );

  // Arriving from the vocabulary book: open the page of the saved word, at its paragraph.
  // Or from a link to a paragraph (Readwise, Obsidian): ?page=…&block=….
  const location = useLocation();
  const jumpTo =
    (location.state as { jumpTo?: { page: number; blockId: string } } | null)?.jumpTo ??
    paragraphLinkTarget(location.search);
  useEffect(() => {
    if (jumpTo) goTo(jumpTo.page, jumpTo.blockId);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per arrival
  }, [jumpTo]);

  // After a jump, bring the block into view and let it glow for a moment.
  useEffect(() => {
    const target = scrollTarget.current;
    if (!target || !data) return;
    const element = document.getElementById(blockDomId(target));
    if (!element) return;
    scrollTarget.current = null;
    element.scrollIntoView?.({ block: 'center' });
    if (flashTarget.current) setFlashId(target);
  }, [data]);
  useEffect(() => {
    if (!flashId) return;
    const timer = setTimeout(() => setFlashId(null), 2200);
    return () => clearTimeout(timer);
  }, [flashId]);

  const original = useOriginalPages({ book, data, page, textRef, goTo });
  const inlinePanel = settings.mode === 'advanced' && wide && !(original.shown && original.sideBySide);

  const prev = useCallback(() => page !== null && page > 1 && goTo(page - 1), [page, goTo]);
  const next = useCallback(() => page !== null && page < pageCount && goTo(page + 1), [page, pageCount, goTo]);
  const { onTouchStart, onTouchEnd } = usePageTurns(prev, next);
  const aloud = useReadAloud({
    data,
    page,
    pageCount,
    originalLang: langTag(book.originalLanguage),
    targetLang: langTag(language),
    onNextPage: next,
  });
  useReadingHeartbeat(bookCode, page, aloud.state === 'playing');

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
      if (await markActions.addAnnotation(annotating, content)) setAnnotating(null);
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

  const startLookup = () => {
    if (!selection) return;
    const { anchor } = selection;
    const rect = window.getSelection()?.rangeCount
      ? window.getSelection()!.getRangeAt(0).getBoundingClientRect()
      : null;
    const sentence = sentenceOfAnchor(anchor);
    clearSelection();
    setLookup({
      id: Date.now(),
      anchor,
      sentence,
      at: narrow || !rect ? null : { x: rect.left + rect.width / 2, y: rect.bottom + 8 },
    });
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

  /** Failed paragraphs tried again now (they are also retried by the server, later). */
  const retry = useCallback(
    (blockIds: string[]) => {
      if (page === null) return;
      retryBlocks(client, { bookCode, language, page }, blockIds, confirmed).catch((error: unknown) =>
        message.error(errorMessage(error)),
      );
    },
    [client, bookCode, language, page, confirmed, message],
  );
  const onRetry = useCallback((blockId: string) => retry([blockId]), [retry]);
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
  // A note marker opens its note wherever it is (NoteLayer.tsx).
  const notes = useNotes({
    bookCode,
    language,
    originalLang: langTag(book.originalLanguage),
    targetLang: langTag(language),
    page,
    narrow,
    goTo,
  });

  const colors = schemeColors(settings);
  const style = {
    '--rd-bg': colors.background,
    '--rd-fg': colors.text,
    '--rd-size': `${settings.fontSize}px`,
    '--rd-lh': String(settings.lineHeight),
    '--rd-gap': `${settings.paragraphMargin}px`,
  } as CSSProperties;

  const chapter = data?.chapter;
  const pageBlocks = useMemo(() => data?.blocks.map((b) => b.id) ?? [], [data]);
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
        marksLoading={markActions.loading}
        onJump={(p, blockId) => {
          if (!inlinePanel) setPanelOpen(false);
          goTo(p, blockId);
        }}
        onDelete={(mark) => void markActions.deleteMark(mark)}
        onExport={() => void markActions.exportNotes()}
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

  const settingsPanel = (
    <Suspense fallback={loadingPart}>
      <SettingsPanel language={language} onLanguage={changeLanguage} />
    </Suspense>
  );

  return (
    <div className={`yd-reader${colors.dark ? ' is-dark' : ''} yd-scheme-${settings.scheme}`} style={style}>
      <ReaderBar
        bookName={book.bookName}
        chapterTitle={chapter ? titleOf(t, chapter) : undefined}
        bookmarked={!!bookmark}
        onToc={() => setTocOpen(true)}
        onBookmark={() => page !== null && void markActions.toggleBookmark(page, bookmark, data?.blocks[0]?.id)}
        onPanel={inlinePanel ? null : () => setPanelOpen(true)}
        narrow={narrow}
        settingsOpen={settingsOpen}
        onSettingsOpen={setSettingsOpen}
        settings={settingsPanel}
        keep={
          <KeepBookButton
            bookCode={bookCode}
            bookName={book.bookName}
            originalLanguage={book.originalLanguage}
            language={language}
          />
        }
        offline={
          // After the first page has come: it never waits for these.
          data && (
            <Suspense fallback={null}>
              <DownloadControl bookCode={bookCode} bookName={book.bookName} language={language} variant="icon" />
              <PositionConflictPrompt bookCode={bookCode} goTo={goTo} />
            </Suspense>
          )
        }
        tools={
          <>
            {original.toggleButton}
            <ReadAloudControl
              aloud={aloud}
              translated={data?.translated ?? book.originalLanguage !== language}
              original={{ code: book.originalLanguage, tag: langTag(book.originalLanguage) }}
              target={{ code: language, tag: langTag(language) }}
            />
          </>
        }
      />

      <div
        className={`yd-reader-body${inlinePanel ? ' has-side' : ''}${original.shown && original.sideBySide ? ' has-pages' : ''}`}
      >
        <article
          ref={textRef}
          className={`yd-reader-text${original.textHidden ? ' is-hidden' : ''}`}
          onTouchStart={onTouchStart}
          onTouchEnd={onTouchEnd}
          onClick={original.onTextClick}
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
            onRetryUntranslated={retry}
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
                onLink={notes.openNote}
                onBackLink={notes.backLink}
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
        {original.pane}
        {inlinePanel && <aside className="yd-reader-side">{panel}</aside>}
      </div>

      <TocDrawer
        contents={book.contents}
        page={page}
        pageBlocks={pageBlocks}
        open={tocOpen}
        onClose={() => setTocOpen(false)}
        onGo={goTo}
      />
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
          {settingsPanel}
        </Drawer>
      )}

      {selection && (
        <SelectionToolbar
          anchor={selection.anchor}
          features={features}
          onCopy={() => void copy()}
          onHighlight={(color) => {
            clearSelection();
            void markActions.addStyled(selection.anchor, 'highlight', color);
          }}
          onUnderline={() => {
            clearSelection();
            void markActions.addStyled(selection.anchor, 'underline', 'blue');
          }}
          onAnnotate={() => {
            setAnnotating(selection.anchor);
            clearSelection();
          }}
          onAi={startAi}
          onLookup={!selection.anchor.inTranslation && features.has('explanation') ? startLookup : undefined}
          onReportWrong={
            selection.anchor.inTranslation
              ? () => {
                  setWrongBlock(selection.anchor.blockId);
                  clearSelection();
                }
              : undefined
          }
        />
      )}
      {lookup && (
        <Suspense fallback={null}>
          <LookupCard
            request={lookup}
            bookCode={bookCode}
            language={language}
            wordLang={langTag(book.originalLanguage)}
            onClose={() => setLookup(null)}
          />
        </Suspense>
      )}
      <ReadAloudBar aloud={aloud} />
      {notes.layer}
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
