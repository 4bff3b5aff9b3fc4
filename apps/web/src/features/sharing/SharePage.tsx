import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert, App, Button, Checkbox, Input, Result, Select, Skeleton, Space, Tabs, Typography } from 'antd';
import { CopyOutlined, LinkOutlined, ShareAltOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AI_FEATURES, type AiFeature } from '@yidu/shared/ai';
import type { Share } from '@yidu/shared/social';
import { booksApi } from '../../api/books.ts';
import { sharingApi } from '../../api/sharing.ts';
import { errorMessage } from '../../api/errors.ts';
import { usePageTitle } from '../../shell/usePageTitle.ts';
import { ShareLinks } from './ShareLinks.tsx';
import { copyText } from './copy.ts';
import '../books/books.css';
import '../account/account.css';
import './sharing.css';

const EXPIRY_CHOICES = [0, 1, 7, 30, 90, 365] as const;

/** /book/share?bookCode=…: choose the features, generate and copy a link, manage the links (SPEC §2.4 Share). */
export default function SharePage() {
  const { t } = useTranslation();
  usePageTitle(t('pages.share.title'));
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const bookCode = params.get('bookCode')?.trim() || '';
  const [features, setFeatures] = useState<AiFeature[]>([...AI_FEATURES]);
  const [expiry, setExpiry] = useState<number>(0);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Share | null>(null);
  /** The link the clipboard refused: shown selectable with the manual-copy hint. */
  const [manualLink, setManualLink] = useState<string | null>(null);
  const [linkError, setLinkError] = useState<string | null>(null);

  const book = useQuery({
    queryKey: ['books', 'detail', bookCode],
    queryFn: () => booksApi.detail(bookCode),
    enabled: bookCode !== '',
  });
  const bookShares = useQuery({
    queryKey: ['shares', 'mine', bookCode],
    queryFn: () => sharingApi.mine(bookCode),
    enabled: bookCode !== '',
  });
  const allShares = useQuery({ queryKey: ['shares', 'mine', ''], queryFn: () => sharingApi.mine() });

  /** The features the sharer has on the book: only those can be passed on. */
  const available = AI_FEATURES.filter((f) => !book.data || book.data.features.includes(f));

  const copy = async (link: string) => {
    if (await copyText(link)) {
      setManualLink(null);
      void message.success(t('share.copied'));
    } else {
      setManualLink(link);
      void message.warning(t('share.copyManually'));
    }
  };

  const generate = async () => {
    setCreating(true);
    setLinkError(null);
    try {
      const share = await sharingApi.create({
        bookCode,
        features: features.filter((f) => available.includes(f)),
        expiresInDays: expiry || null,
      });
      setCreated(share);
      void queryClient.invalidateQueries({ queryKey: ['shares'] });
      await copy(share.url);
    } catch (error) {
      setCreated(null);
      setLinkError(errorMessage(error));
      void message.error(`${t('share.linkError')}: ${errorMessage(error)}`);
    } finally {
      setCreating(false);
    }
  };

  const revoke = async (share: Share) => {
    try {
      await sharingApi.revoke(share.id);
      void message.success(t('share.revoked'));
      if (created?.id === share.id) setCreated(null);
      await queryClient.invalidateQueries({ queryKey: ['shares'] });
    } catch (error) {
      void message.error(`${t('share.revokeFailed')}: ${errorMessage(error)}`);
    }
  };

  const links = (
    <Tabs
      className="yd-share-tabs"
      items={[
        ...(bookCode
          ? [
              {
                key: 'book',
                label: t('share.thisBookLinks'),
                children: (
                  <ShareLinks
                    shares={bookShares.data}
                    loading={bookShares.isPending}
                    onCopy={(s) => void copy(s.url)}
                    onRevoke={revoke}
                    emptyText={t('share.noLinksForBook')}
                  />
                ),
              },
            ]
          : []),
        {
          key: 'all',
          label: t('share.allLinks'),
          children: (
            <ShareLinks
              shares={allShares.data}
              loading={allShares.isPending}
              showBook
              onCopy={(s) => void copy(s.url)}
              onRevoke={revoke}
              emptyText={t('share.noLinks')}
            />
          ),
        },
      ]}
    />
  );

  return (
    <div className="yd-share-page">
      <div className="yd-library-head">
        <div className="yd-library-heading">
          <h1 className="yd-library-title">{t('pages.share.title')}</h1>
          <span className="yd-library-count">{t('share.subtitle')}</span>
        </div>
      </div>

      {!bookCode ? (
        <div className="yd-panel yd-share-pick">
          <Result
            icon={<ShareAltOutlined className="yd-result-icon" />}
            title={t('share.pickTitle')}
            subTitle={t('share.pickText')}
            extra={
              <Link to="/books/user">
                <Button type="primary">{t('share.toLibrary')}</Button>
              </Link>
            }
          />
        </div>
      ) : book.isError ? (
        <div className="yd-panel">
          <Result status="warning" title={t('share.bookMissing')} subTitle={errorMessage(book.error)} />
        </div>
      ) : (
        <section className="yd-panel yd-share-create" aria-label={t('share.createTitle')}>
          {book.isPending ? (
            <Skeleton active paragraph={{ rows: 2 }} />
          ) : (
            <div className="yd-share-book">
              <Typography.Title level={4} className="yd-share-book-title">
                {book.data.bookName}
              </Typography.Title>
              <span className="yd-muted">
                {t('share.bookCode')}:{' '}
                <Typography.Text code copyable>
                  {bookCode}
                </Typography.Text>
              </span>
            </div>
          )}

          <div className="yd-share-field">
            <div className="yd-share-field-head">
              <strong id="share-features-label">{t('share.featuresLabel')}</strong>
              <Space size={4}>
                <Button size="small" type="link" onClick={() => setFeatures([...available])}>
                  {t('share.selectAll')}
                </Button>
                <Button size="small" type="link" onClick={() => setFeatures([])}>
                  {t('share.deselectAll')}
                </Button>
              </Space>
            </div>
            <Checkbox.Group<AiFeature>
              aria-labelledby="share-features-label"
              className="yd-share-features"
              value={features}
              onChange={(values) => setFeatures(values)}
              options={AI_FEATURES.map((f) => ({
                value: f,
                disabled: !available.includes(f),
                label: (
                  <span className="yd-share-feature">
                    <span>{t(`share.feature.${f}`)}</span>
                    <span className="yd-muted">{t(`share.featureHint.${f}`)}</span>
                  </span>
                ),
              }))}
            />
            {features.length === 0 && (
              <Typography.Text type="secondary" className="yd-share-note">
                {t('share.readOnlyNote')}
              </Typography.Text>
            )}
          </div>

          <div className="yd-share-field yd-share-expiry">
            <label htmlFor="share-expiry">
              <strong>{t('share.expiryLabel')}</strong>
            </label>
            <Select<number>
              id="share-expiry"
              value={expiry}
              onChange={setExpiry}
              style={{ minWidth: 180 }}
              options={EXPIRY_CHOICES.map((d) => ({
                value: d,
                label: d === 0 ? t('share.expiryNever') : t('share.expiryDays', { n: d }),
              }))}
            />
          </div>

          <Button
            type="primary"
            size="large"
            icon={<LinkOutlined />}
            loading={creating}
            disabled={book.isPending}
            onClick={() => void generate()}
          >
            {t('share.generate')}
          </Button>

          {linkError && (
            <Alert
              type="error"
              showIcon
              className="yd-share-result"
              title={t('share.linkError')}
              description={linkError}
            />
          )}
          {created && !linkError && (
            <div className="yd-share-result" data-testid="share-result">
              {manualLink === created.url ? (
                <Alert
                  type="warning"
                  showIcon
                  title={t('share.copyManually')}
                  description={t('share.copyManuallyHint')}
                />
              ) : (
                <Alert type="success" showIcon title={t('share.createdCopied')} />
              )}
              <Space.Compact className="yd-share-link-box">
                <Input
                  readOnly
                  value={created.url}
                  aria-label={t('share.linkLabel')}
                  data-testid="share-link"
                  onFocus={(e) => e.currentTarget.select()}
                  autoFocus={manualLink === created.url}
                />
                <Button icon={<CopyOutlined />} onClick={() => void copy(created.url)}>
                  {t('share.copy')}
                </Button>
              </Space.Compact>
            </div>
          )}
        </section>
      )}

      <section className="yd-panel yd-share-links" aria-label={t('share.linksTitle')}>
        <Typography.Title level={5} className="yd-section-title">
          {t('share.linksTitle')}
        </Typography.Title>
        {links}
      </section>
    </div>
  );
}
