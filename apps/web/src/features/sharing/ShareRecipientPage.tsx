import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Alert, App, Button, Result, Skeleton, Space, Tag, Typography } from 'antd';
import {
  CheckCircleFilled,
  CheckOutlined,
  ClockCircleOutlined,
  ReadOutlined,
  StopOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ShareInfo } from '@yidu/shared/social';
import { sharingApi } from '../../api/sharing.ts';
import { ApiError } from '../../api/client.ts';
import { errorMessage } from '../../api/errors.ts';
import { usePageTitle } from '../../shell/usePageTitle.ts';
import { BookCover } from '../books/BookCover.tsx';
import { useAuthorName } from '../books/BookCard.tsx';
import { useFormatDate, useLanguageNames, useOpenBook } from '../books/bookUtils.ts';
import '../books/books.css';
import '../account/account.css';
import './sharing.css';

/** /book/share/:id — what a recipient sees: the book, the granted features, the sharer, the state; Accept. */
export default function ShareRecipientPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const openBook = useOpenBook();
  const formatDate = useFormatDate();
  const authorName = useAuthorName();
  const { nameOf } = useLanguageNames();
  const [accepting, setAccepting] = useState(false);
  const [justAccepted, setJustAccepted] = useState(false);

  const info = useQuery({
    queryKey: ['shares', 'info', id],
    queryFn: () => sharingApi.info(id),
    retry: false,
  });
  usePageTitle(info.data?.book?.bookName ?? t('shareView.pageTitle'));

  const accept = async () => {
    setAccepting(true);
    try {
      await sharingApi.accept(id);
      setJustAccepted(true);
      void message.success(t('shareView.acceptedToast'));
      queryClient.setQueryData<ShareInfo>(['shares', 'info', id], (current) =>
        current ? { ...current, accepted: true } : current,
      );
      void queryClient.invalidateQueries({ queryKey: ['books'] });
    } catch (error) {
      void message.error(`${t('shareView.acceptFailed')}: ${errorMessage(error)}`);
      // The link may have expired or been revoked meanwhile: show its state.
      if (error instanceof ApiError && ['shareExpired', 'shareRevoked'].includes(error.key)) void info.refetch();
    } finally {
      setAccepting(false);
    }
  };

  if (info.isPending) {
    return (
      <div className="yd-panel yd-share-view">
        <Skeleton active avatar={{ shape: 'square', size: 120 }} paragraph={{ rows: 5 }} />
      </div>
    );
  }
  if (info.isError) {
    const missing = info.error instanceof ApiError && info.error.key === 'notFound';
    return (
      <div className="yd-panel">
        <Result
          status={missing ? '404' : 'error'}
          title={missing ? t('shareView.notFoundTitle') : t('shareView.loadFailed')}
          subTitle={missing ? t('shareView.notFoundText') : errorMessage(info.error)}
          extra={
            <Space wrap>
              {!missing && <Button onClick={() => void info.refetch()}>{t('books.retry')}</Button>}
              <Link to="/books/user">
                <Button type="primary">{t('shareView.toLibrary')}</Button>
              </Link>
            </Space>
          }
        />
      </div>
    );
  }

  const share = info.data;
  const { book } = share;
  // A dead link to a book the caller cannot otherwise see: only its state is shown.
  if (!book) {
    return (
      <div className="yd-panel yd-share-view" data-testid="share-view" data-state={share.state}>
        <div className="yd-share-view-main">
          <DeadLink state={share.state} />
        </div>
      </div>
    );
  }
  const author = authorName(book.bookAuthor);
  const language = nameOf(book.originalLanguage);
  const inLibrary = share.accepted || share.isOwner;
  const read = () => openBook({ bookCode: book.bookCode, bookName: book.bookName, coverUrl: book.coverUrl });

  return (
    <div className="yd-panel yd-share-view" data-testid="share-view" data-state={share.state}>
      <div className="yd-share-view-cover">
        <BookCover name={book.bookName} author={author} coverUrl={book.coverUrl} size="large" />
      </div>
      <div className="yd-share-view-main">
        <span className="yd-share-kicker">
          <UserOutlined />{' '}
          {share.sharedBy ? t('shareView.sharedBy', { name: share.sharedBy }) : t('shareView.sharedAnonymously')}
        </span>
        <Typography.Title level={2} className="yd-share-view-title">
          {book.bookName}
        </Typography.Title>
        <div className="yd-detail-author">{author}</div>
        <div className="yd-book-tags">
          <Tag variant="filled">{book.format.toUpperCase()}</Tag>
          {language && <Tag variant="filled">{language}</Tag>}
          {book.pageCount > 0 && <Tag variant="filled">{t('shareView.pages', { n: book.pageCount })}</Tag>}
        </div>
        {book.bookDescribe ? (
          <Typography.Paragraph
            className="yd-detail-desc"
            ellipsis={{ rows: 4, expandable: true, symbol: t('books.detail.more') }}
          >
            {book.bookDescribe}
          </Typography.Paragraph>
        ) : (
          <Typography.Paragraph type="secondary">{t('books.detail.noDescription')}</Typography.Paragraph>
        )}

        <section className="yd-share-granted" aria-labelledby="share-granted">
          <h3 id="share-granted">{t('shareView.grantedTitle')}</h3>
          <p className="yd-muted">{t('shareView.grantedIntro')}</p>
          {share.features.length ? (
            <ul className="yd-share-granted-list" data-testid="granted-features">
              {share.features.map((f) => (
                <li key={f} data-feature={f}>
                  <CheckCircleFilled className="yd-share-check" />
                  <span>
                    <strong>{t(`share.feature.${f}`)}</strong>
                    <span className="yd-muted">{t(`share.featureHint.${f}`)}</span>
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p>{t('shareView.noFeatures')}</p>
          )}
          <p className="yd-muted yd-share-expiry-note">
            <ClockCircleOutlined />{' '}
            {share.expiresAt
              ? t('shareView.validUntil', { date: formatDate(share.expiresAt) })
              : t('shareView.noExpiry')}
          </p>
        </section>

        <StateActions
          share={share}
          inLibrary={inLibrary}
          justAccepted={justAccepted}
          accepting={accepting}
          onAccept={() => void accept()}
          onRead={read}
        />
      </div>
    </div>
  );
}

interface StateActionsProps {
  share: ShareInfo;
  inLibrary: boolean;
  justAccepted: boolean;
  accepting: boolean;
  onAccept: () => void;
  onRead: () => void;
}

function StateActions({ share, inLibrary, justAccepted, accepting, onAccept, onRead }: StateActionsProps) {
  const { t } = useTranslation();
  const readButton = (
    <Button type="primary" size="large" icon={<ReadOutlined />} onClick={onRead}>
      {t('shareView.readNow')}
    </Button>
  );
  const libraryLink = (
    <Link to="/books/user">
      <Button size="large">{t('shareView.toLibrary')}</Button>
    </Link>
  );

  if (share.isOwner) {
    return (
      <div className="yd-share-state">
        <Alert type="info" showIcon title={t('shareView.ownerTitle')} description={t('shareView.ownerText')} />
        <Space wrap>
          {readButton}
          <Link to={`/book/share?bookCode=${encodeURIComponent(share.book?.bookCode ?? '')}`}>
            <Button size="large">{t('shareView.manage')}</Button>
          </Link>
        </Space>
      </div>
    );
  }
  if (share.state !== 'active') return <DeadLink state={share.state} />;
  if (inLibrary) {
    return (
      <div className="yd-share-state" role="status">
        <Alert
          type="success"
          showIcon
          icon={<CheckOutlined />}
          title={justAccepted ? t('shareView.acceptedTitle') : t('shareView.alreadyTitle')}
          description={t('shareView.acceptedText')}
        />
        <Space wrap>
          {readButton}
          {libraryLink}
        </Space>
      </div>
    );
  }
  return (
    <div className="yd-share-state">
      <Typography.Text type="secondary">{t('shareView.acceptHint')}</Typography.Text>
      <Space wrap>
        <Button type="primary" size="large" icon={<CheckOutlined />} loading={accepting} onClick={onAccept}>
          {t('shareView.accept')}
        </Button>
      </Space>
    </div>
  );
}

/** An expired or revoked link: what happened, and the way back to the library. */
function DeadLink({ state }: { state: ShareInfo['state'] }) {
  const { t } = useTranslation();
  const expired = state === 'expired';
  return (
    <div className="yd-share-state" role="status">
      <Alert
        type={expired ? 'warning' : 'error'}
        showIcon
        icon={expired ? <ClockCircleOutlined /> : <StopOutlined />}
        title={expired ? t('shareView.expiredTitle') : t('shareView.revokedTitle')}
        description={expired ? t('shareView.expiredText') : t('shareView.revokedText')}
      />
      <Link to="/books/user">
        <Button size="large">{t('shareView.toLibrary')}</Button>
      </Link>
    </div>
  );
}
