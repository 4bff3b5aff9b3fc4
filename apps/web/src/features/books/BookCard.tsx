import type { KeyboardEvent } from 'react';
import { Checkbox, Tag, Tooltip } from 'antd';
import { ClockCircleOutlined, GlobalOutlined, LockOutlined, TeamOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { BookSummary } from '@yidu/shared/books';
import { BookCover } from './BookCover.tsx';
import { formatLabel, useFormatDate, useFormatNumber, useLanguageNames } from './bookUtils.ts';

interface BookCardProps {
  book: BookSummary;
  onOpen: (book: BookSummary) => void;
  selecting?: boolean;
  selected?: boolean;
  onToggle?: (book: BookSummary) => void;
}

/** The author as shown: the server's default 'Anonymous' is translated. */
export function useAuthorName(): (author: string) => string {
  const { t } = useTranslation();
  return (author) => (!author || author === 'Anonymous' ? t('books.anonymous') : author);
}

/** One book of a library grid: cover, title, author, excerpt, tags and a quiet meta line. */
export function BookCard({ book, onOpen, selecting = false, selected = false, onToggle }: BookCardProps) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const formatNumber = useFormatNumber();
  const { nameOf } = useLanguageNames();
  const authorName = useAuthorName();
  const author = authorName(book.bookAuthor);
  const activate = () => (selecting ? onToggle?.(book) : onOpen(book));
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      activate();
    }
  };
  const language = nameOf(book.originalLanguage);

  return (
    <article
      className={`yd-book-card${selected ? ' is-selected' : ''}${selecting ? ' is-selecting' : ''}`}
      role={selecting ? 'checkbox' : 'button'}
      aria-checked={selecting ? selected : undefined}
      aria-label={book.bookName}
      tabIndex={0}
      onClick={activate}
      onKeyDown={onKeyDown}
      data-testid={`book-card-${book.bookCode}`}
    >
      {selecting && (
        <Checkbox
          className="yd-book-card-check"
          checked={selected}
          tabIndex={-1}
          aria-hidden="true"
          onClick={(event) => event.stopPropagation()}
          onChange={() => onToggle?.(book)}
        />
      )}
      <BookCover name={book.bookName} author={author} coverUrl={book.coverUrl} />
      <div className="yd-book-card-body">
        <h3 className="yd-book-title">{book.bookName}</h3>
        <div className="yd-book-author">{author}</div>
        {book.bookDescribe && <p className="yd-book-desc">{book.bookDescribe}</p>}
        <div className="yd-book-tags">
          {book.bookStatus === 1 ? (
            <Tag icon={<GlobalOutlined />} color="green" variant="filled">
              {t('books.public')}
            </Tag>
          ) : (
            <Tag icon={<LockOutlined />} variant="filled">
              {t('books.private')}
            </Tag>
          )}
          {book.category && (
            <Tag color="orange" variant="filled">
              {book.category}
            </Tag>
          )}
          <Tag variant="outlined">{formatLabel(book.format)}</Tag>
          {language && <Tag variant="outlined">{language}</Tag>}
        </div>
        <div className="yd-book-meta">
          <Tooltip title={t('books.readers')}>
            <span aria-label={`${t('books.readers')} ${formatNumber(book.readers)}`}>
              <TeamOutlined /> {formatNumber(book.readers)}
            </span>
          </Tooltip>
          <span>
            <ClockCircleOutlined /> {t('books.updatedOn', { date: formatDate(book.updateAt) })}
          </span>
        </div>
      </div>
    </article>
  );
}
