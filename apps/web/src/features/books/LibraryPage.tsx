import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { App, Button, Empty, Grid, Input, Pagination, Result, Segmented, Select, Skeleton } from 'antd';
import {
  BookOutlined,
  CheckSquareOutlined,
  CloudUploadOutlined,
  DeleteOutlined,
  GlobalOutlined,
  LockOutlined,
  SearchOutlined,
} from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LIBRARY_SECTIONS, type BookSummary, type LibrarySection } from '@yidu/shared/books';
import { booksApi, type BatchResult } from '../../api/books.ts';
import { errorMessage } from '../../api/errors.ts';
import { usePageTitle } from '../../shell/usePageTitle.ts';
import { BookCard } from './BookCard.tsx';
import { BookDetailModal } from './BookDetailModal.tsx';
import { DeleteBookDialog } from './DeleteBookDialog.tsx';
import { useDebounced } from './useDebounced.ts';
import { confirmPublic } from './confirmPublic.tsx';
import { useFormatNumber } from './bookUtils.ts';
import './books.css';

const PERSONAL_SORTS = ['default', 'updated', 'title'] as const;
type PersonalSort = (typeof PERSONAL_SORTS)[number];
const DEFAULT_PAGE_SIZE = 24;
const SEARCH_DELAY_MS = 400;

/** The translated batch outcome of POST /api/book/user/batch. */
export function batchSummary(
  t: (key: string, values?: Record<string, unknown>) => string,
  result: BatchResult,
): string {
  const first = result.failed[0];
  const reason = first ? t(`errors.${first.key}`, { defaultValue: t('errors.unknown') }) : '';
  return result.failed.length
    ? t('books.batch.resultWithFailures', { done: result.done.length, failed: result.failed.length, reason })
    : t('books.batch.result', { done: result.done.length });
}

/** /books/{kind}: 'all' = public library (sections), 'user' = personal library (sorts), others ('uploaded'). */
export default function LibraryPage() {
  const { t } = useTranslation();
  const { kind = 'all' } = useParams();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const screens = Grid.useBreakpoint();
  const narrow = screens.md === false;
  const formatNumber = useFormatNumber();
  const [params, setParams] = useSearchParams();
  const isPublic = kind === 'all';
  const isPersonal = kind === 'user';
  const canManage = !isPublic;

  const section = (LIBRARY_SECTIONS as readonly string[]).includes(params.get('section') ?? '')
    ? (params.get('section') as LibrarySection)
    : 'new';
  const sort = (PERSONAL_SORTS as readonly string[]).includes(params.get('sort') ?? '')
    ? (params.get('sort') as PersonalSort)
    : 'default';
  const keyword = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const pageSize = Math.min(100, Math.max(1, Number(params.get('size')) || DEFAULT_PAGE_SIZE));

  const title =
    kind === 'all'
      ? t('pages.library.all')
      : kind === 'user'
        ? t('pages.library.user')
        : kind === 'uploaded'
          ? t('books.kind.uploaded')
          : t('pages.library.other');
  usePageTitle(title);

  const update = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [name, value] of Object.entries(changes)) {
          if (value === null || value === '') next.delete(name);
          else next.set(name, value);
        }
        return next;
      },
      { replace: true },
    );

  // Search: typed text settles before it becomes the keyword; IME composition (CJK) is waited for.
  const [text, setText] = useState(keyword);
  const [composing, setComposing] = useState(false);
  const settled = useDebounced(text, SEARCH_DELAY_MS, composing);
  const lastKeyword = useRef(keyword);
  useEffect(() => {
    const next = settled.trim();
    if (next !== lastKeyword.current) {
      lastKeyword.current = next;
      update({ q: next || null, page: null });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs when the settled text changes
  }, [settled]);
  useEffect(() => {
    // Another kind, or the URL changed under us (back button): follow it.
    if (keyword !== lastKeyword.current) {
      lastKeyword.current = keyword;
      setText(keyword);
    }
  }, [keyword]);

  const query = {
    section: isPublic ? section : undefined,
    sort: isPersonal ? sort : undefined,
    keyword: keyword || undefined,
    page,
    pageSize,
  };
  const library = useQuery({
    queryKey: ['books', 'library', kind, query],
    queryFn: ({ signal }) => booksApi.library(kind, query, signal),
    placeholderData: keepPreviousData,
  });
  const items = useMemo(() => library.data?.items ?? [], [library.data]);

  // Batch manage.
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<Map<string, BookSummary>>(new Map());
  const [deleting, setDeleting] = useState<BookSummary[] | null>(null);
  const [batchBusy, setBatchBusy] = useState(false);
  useEffect(() => {
    setSelecting(false);
    setSelected(new Map());
  }, [kind]);
  const toggle = (book: BookSummary) =>
    setSelected((current) => {
      const next = new Map(current);
      if (next.has(book.bookCode)) next.delete(book.bookCode);
      else next.set(book.bookCode, book);
      return next;
    });
  const allOnPageSelected = items.length > 0 && items.every((b) => selected.has(b.bookCode));
  const selectPage = () =>
    setSelected((current) => {
      const next = new Map(current);
      if (allOnPageSelected) for (const b of items) next.delete(b.bookCode);
      else for (const b of items) next.set(b.bookCode, b);
      return next;
    });
  const stopSelecting = () => {
    setSelecting(false);
    setSelected(new Map());
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['books'] });

  const runBatch = async (body: Parameters<typeof booksApi.batch>[0]) => {
    setBatchBusy(true);
    try {
      const result = await booksApi.batch(body);
      const text = batchSummary(t, result);
      if (result.failed.length) void message.warning(text);
      else void message.success(text);
      // What failed stays selected, to retry or to look at.
      setSelected((current) => {
        const next = new Map<string, BookSummary>();
        for (const f of result.failed) {
          const book = current.get(f.bookCode);
          if (book) next.set(f.bookCode, book);
        }
        return next;
      });
      await refresh();
    } catch (error) {
      void message.error(t('books.batch.failed', { reason: errorMessage(error) }));
    } finally {
      setBatchBusy(false);
    }
  };
  const setVisibility = (bookStatus: 0 | 1) => {
    const bookCodes = [...selected.keys()];
    if (bookStatus === 1) {
      confirmPublic(modal, t, () => runBatch({ bookCodes, action: 'setVisibility', bookStatus: 1, keepPublic: true }));
    } else void runBatch({ bookCodes, action: 'setVisibility', bookStatus: 0, keepPublic: true });
  };

  // Detail popup.
  const [openBook, setOpenBook] = useState<BookSummary | null>(null);

  const total = library.data?.total ?? 0;
  const selectedList = [...selected.values()];
  const anyOwned = selectedList.some((b) => b.isOwner);

  const sectionOptions = LIBRARY_SECTIONS.map((value) => ({ value, label: t(`books.section.${value}`) }));
  const sortOptions = PERSONAL_SORTS.map((value) => ({ value, label: t(`books.sort.${value}`) }));

  return (
    <div className={`yd-library${selecting ? ' is-selecting' : ''}`}>
      <header className="yd-library-head">
        <div className="yd-library-heading">
          <h1 className="yd-library-title">{title}</h1>
          <span className="yd-library-count">
            {library.data ? t('books.total', { count: total, n: formatNumber(total) }) : '\u00a0'}
          </span>
        </div>
        <div className="yd-library-actions">
          {canManage && (selecting || total > 0) && (
            <Button
              icon={<CheckSquareOutlined />}
              onClick={() => (selecting ? stopSelecting() : setSelecting(true))}
              type={selecting ? 'primary' : 'default'}
              ghost={selecting}
            >
              {selecting ? t('books.batch.done') : t('books.batch.manage')}
            </Button>
          )}
          <Link to="/book/upload">
            <Button type="primary" icon={<CloudUploadOutlined />}>
              {t('books.uploadBook')}
            </Button>
          </Link>
        </div>
      </header>

      <div className="yd-library-toolbar">
        {isPublic && (
          <Segmented
            className="yd-library-sections"
            options={sectionOptions}
            value={section}
            onChange={(value) => update({ section: value === 'new' ? null : String(value), page: null })}
          />
        )}
        {isPersonal && (
          <Select
            className="yd-library-sort"
            aria-label={t('books.sort.label')}
            prefix={<span className="yd-muted">{t('books.sort.label')}</span>}
            options={sortOptions}
            value={sort}
            onChange={(value) => update({ sort: value === 'default' ? null : value, page: null })}
            popupMatchSelectWidth={false}
          />
        )}
        <Input
          className="yd-library-search"
          allowClear
          prefix={<SearchOutlined className="yd-muted" />}
          placeholder={t('books.searchPlaceholder')}
          aria-label={t('books.search')}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onCompositionStart={() => setComposing(true)}
          onCompositionEnd={(event) => {
            setComposing(false);
            setText((event.target as HTMLInputElement).value);
          }}
          onPressEnter={() => {
            lastKeyword.current = text.trim();
            update({ q: text.trim() || null, page: null });
          }}
        />
      </div>

      {library.isError && !library.data ? (
        <div className="yd-panel">
          <Result
            status="warning"
            title={t('books.loadFailed')}
            subTitle={errorMessage(library.error)}
            extra={<Button onClick={() => void library.refetch()}>{t('books.retry')}</Button>}
          />
        </div>
      ) : library.isPending ? (
        <div className="yd-book-grid" aria-busy="true">
          {Array.from({ length: 6 }, (_, i) => (
            <div key={i} className="yd-book-card yd-book-card-skeleton">
              <Skeleton.Node active className="yd-cover yd-cover-card" />
              <Skeleton active title paragraph={{ rows: 3 }} />
            </div>
          ))}
        </div>
      ) : items.length === 0 ? (
        <LibraryEmpty kind={kind} section={section} keyword={keyword} onClear={() => setText('')} />
      ) : (
        <>
          <div className={`yd-book-grid${library.isFetching ? ' is-fetching' : ''}`} data-testid="book-grid">
            {items.map((book) => (
              <BookCard
                key={book.bookCode}
                book={book}
                onOpen={setOpenBook}
                selecting={selecting}
                selected={selected.has(book.bookCode)}
                onToggle={toggle}
              />
            ))}
          </div>
          {total > pageSize || page > 1 ? (
            <Pagination
              className="yd-library-pagination"
              current={page}
              pageSize={pageSize}
              total={total}
              simple={narrow}
              showSizeChanger={!narrow}
              pageSizeOptions={[12, 24, 48, 96]}
              onChange={(nextPage, nextSize) => {
                update({
                  page: nextPage > 1 ? String(nextPage) : null,
                  size: nextSize !== DEFAULT_PAGE_SIZE ? String(nextSize) : null,
                });
                window.scrollTo?.({ top: 0, behavior: 'smooth' });
              }}
            />
          ) : null}
        </>
      )}

      {selecting && (
        <div className="yd-batch-bar" role="toolbar" aria-label={t('books.batch.manage')}>
          <span className="yd-batch-count">{t('books.batch.selected', { n: selected.size })}</span>
          <Button type="link" onClick={selectPage} disabled={items.length === 0}>
            {allOnPageSelected ? t('books.batch.clearPage') : t('books.batch.selectPage')}
          </Button>
          <div className="yd-batch-actions">
            <Button
              icon={<GlobalOutlined />}
              disabled={!anyOwned || batchBusy}
              onClick={() => setVisibility(1)}
              title={anyOwned ? undefined : t('books.batch.ownerOnly')}
            >
              {t('books.batch.setPublic')}
            </Button>
            <Button
              icon={<LockOutlined />}
              disabled={!anyOwned || batchBusy}
              onClick={() => setVisibility(0)}
              title={anyOwned ? undefined : t('books.batch.ownerOnly')}
            >
              {t('books.batch.setPrivate')}
            </Button>
            <Button
              danger
              icon={<DeleteOutlined />}
              disabled={selected.size === 0 || batchBusy}
              loading={batchBusy}
              onClick={() => setDeleting(selectedList)}
            >
              {t('books.batch.delete')}
            </Button>
          </div>
        </div>
      )}

      <DeleteBookDialog
        books={deleting}
        onCancel={() => setDeleting(null)}
        onConfirm={async (keepPublic) => {
          const bookCodes = (deleting ?? []).map((b) => b.bookCode);
          setDeleting(null);
          await runBatch({ bookCodes, action: 'delete', keepPublic });
        }}
      />

      <BookDetailModal
        book={openBook}
        onClose={() => setOpenBook(null)}
        onChanged={(changed) => {
          if (changed === null) setOpenBook(null);
          void refresh();
        }}
      />
    </div>
  );
}

function LibraryEmpty({
  kind,
  section,
  keyword,
  onClear,
}: {
  kind: string;
  section: LibrarySection;
  keyword: string;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  if (keyword) {
    return (
      <div className="yd-panel yd-library-empty">
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('books.empty.search', { q: keyword })}>
          <Button onClick={onClear}>{t('books.empty.clearSearch')}</Button>
        </Empty>
      </div>
    );
  }
  const personal = kind === 'user';
  const recommended = kind === 'all' && section === 'recommended';
  return (
    <div className="yd-panel yd-library-empty">
      <Empty
        image={<BookOutlined className="yd-empty-icon" />}
        description={
          <>
            <div className="yd-empty-title">
              {personal
                ? t('books.empty.userTitle')
                : recommended
                  ? t('books.empty.recommendedTitle')
                  : kind === 'all'
                    ? t('books.empty.allTitle')
                    : t('books.empty.otherTitle')}
            </div>
            <div className="yd-muted">
              {personal
                ? t('books.empty.userText')
                : recommended
                  ? t('books.empty.recommendedText')
                  : kind === 'all'
                    ? t('books.empty.allText')
                    : t('books.empty.otherText')}
            </div>
          </>
        }
      >
        <div className="yd-empty-actions">
          <Link to="/book/upload">
            <Button type="primary" icon={<CloudUploadOutlined />}>
              {t('books.uploadBook')}
            </Button>
          </Link>
          {kind !== 'all' && (
            <Link to="/books/all">
              <Button>{t('books.empty.browsePublic')}</Button>
            </Link>
          )}
        </div>
      </Empty>
    </div>
  );
}
