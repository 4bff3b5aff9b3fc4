import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, Empty, Input, Progress, Skeleton } from 'antd';
import { GlobalOutlined, ReadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NEW_TAB, useTabs } from '../../stores/tabs.ts';
import { usePageTitle } from '../../shell/usePageTitle.ts';
import { readerApi, readerPath, type RecentBook } from '../../api/reader.ts';
import { BookCover } from '../books/BookCover.tsx';
import { useAuthorName } from '../books/BookCard.tsx';
import { useOpenBook } from '../books/bookUtils.ts';
import '../books/books.css';

/** /tabs/new: continue reading, the personal library with a search, and the way to the public library. */
export default function NewTabPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const openBook = useOpenBook();
  const authorName = useAuthorName();
  const activate = useTabs((s) => s.activate);
  usePageTitle(t('tabs.newTab'), { bare: true });
  useEffect(() => activate(NEW_TAB.id), [activate]);

  const recent = useQuery({ queryKey: ['readerRecent'], queryFn: readerApi.recent, retry: false });
  const books = useQuery({ queryKey: ['userBookList'], queryFn: readerApi.userBooks, retry: false });
  const [query, setQuery] = useState('');
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    const list = books.data ?? [];
    return q ? list.filter((b) => `${b.bookName} ${b.bookAuthor}`.toLowerCase().includes(q)) : list;
  }, [books.data, query]);

  const resume = (item: RecentBook) => {
    useTabs.getState().addBook({ bookCode: item.bookCode, name: item.bookName, language: item.language });
    void navigate(readerPath(item.bookCode, item.language));
  };

  return (
    <div className="yd-newtab">
      <div className="yd-newtab-head">
        <h1 className="yd-page-heading">{t('tabs.newTab')}</h1>
        <Link to="/books/all">
          <Button icon={<GlobalOutlined />}>{t('tabs.publicLibrary')}</Button>
        </Link>
      </div>

      {(recent.data?.length ?? 0) > 0 && (
        <section aria-labelledby="yd-continue">
          <h2 id="yd-continue">{t('tabs.continue')}</h2>
          <div className="yd-continue">
            {recent.data!.slice(0, 6).map((item) => (
              <button key={item.bookCode} type="button" className="yd-continue-card" onClick={() => resume(item)}>
                <strong>{item.bookName}</strong>
                <small>{t('reader.pageOf', { page: item.page, count: item.pageCount })}</small>
                <Progress
                  percent={item.pageCount ? Math.round((item.page / item.pageCount) * 100) : 0}
                  size="small"
                  strokeColor="#b4562f"
                />
              </button>
            ))}
          </div>
        </section>
      )}

      <section aria-labelledby="yd-shelf">
        <div className="yd-newtab-head">
          <h2 id="yd-shelf">{t('tabs.myBooks')}</h2>
          <Input.Search
            className="yd-newtab-search"
            allowClear
            placeholder={t('tabs.searchBooks')}
            aria-label={t('tabs.searchBooks')}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>
        {books.isPending ? (
          <Skeleton active />
        ) : shown.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={query ? t('tabs.noMatch') : t('tabs.emptyShelf')}>
            <Link to="/books/all">
              <Button type="primary" icon={<ReadOutlined />}>
                {t('tabs.publicLibrary')}
              </Button>
            </Link>
          </Empty>
        ) : (
          <div className="yd-shelf">
            {shown.map((book) => (
              <button key={book.bookCode} type="button" className="yd-shelf-book" onClick={() => openBook(book)}>
                <BookCover name={book.bookName} author={authorName(book.bookAuthor)} coverUrl={book.coverUrl} />
                <span>{book.bookName}</span>
              </button>
            ))}
          </div>
        )}
      </section>
    </div>
  );
}
