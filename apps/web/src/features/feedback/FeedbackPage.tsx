import { useState } from 'react';
import { Button, Drawer, Empty, Grid, Input, Modal, Pagination, Select, Skeleton, Table, Tag } from 'antd';
import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FEEDBACK_STATUSES, FEEDBACK_TYPES, type Feedback } from '@yidu/shared/social';
import { feedbackApi, type FeedbackStatus, type FeedbackType } from '../../api/feedback.ts';
import { errorMessage } from '../../api/errors.ts';
import { usePageTitle } from '../../shell/usePageTitle.ts';
import { isAdmin, useAuth } from '../../stores/auth.ts';
import { useDebounced } from '../books/useDebounced.ts';
import { useFormatDateTime } from '../account/format.ts';
import { FeedbackForm } from './FeedbackForm.tsx';
import { FeedbackDetail, STATUS_COLORS } from './FeedbackDetail.tsx';
import '../books/books.css';
import '../account/account.css';

const PAGE_SIZE = 20;

/** /bug: the feedback list (admins: everyone's, with filters), details and the add form (SPEC §2.4). */
export default function FeedbackPage() {
  const { t } = useTranslation();
  usePageTitle(t('pages.feedback.title'));
  const screens = Grid.useBreakpoint();
  const narrow = screens.md === false;
  const queryClient = useQueryClient();
  const formatDateTime = useFormatDateTime();
  const admin = isAdmin(useAuth((s) => s.user));
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<FeedbackStatus | undefined>();
  const [type, setType] = useState<FeedbackType | undefined>();
  const [keyword, setKeyword] = useState('');
  const debouncedKeyword = useDebounced(keyword.trim(), 400);
  const [adding, setAdding] = useState(false);
  const [openId, setOpenId] = useState<number | null>(null);

  const list = useQuery({
    queryKey: ['feedback', 'list', { page, status, type, keyword: debouncedKeyword }],
    queryFn: () =>
      feedbackApi.search({ page, pageSize: PAGE_SIZE, status, type, keyword: debouncedKeyword || undefined }),
    placeholderData: keepPreviousData,
  });
  const items = list.data?.items ?? [];

  const columns = [
    {
      key: 'title',
      title: t('feedback.field.title'),
      render: (_: unknown, f: Feedback) => <span className="yd-feedback-title-cell">{f.title}</span>,
    },
    { key: 'type', title: t('feedback.field.type'), render: (_: unknown, f: Feedback) => t(`feedback.type.${f.type}`) },
    {
      key: 'status',
      title: t('feedback.field.status'),
      render: (_: unknown, f: Feedback) => (
        <Tag color={STATUS_COLORS[f.status]}>{t(`feedback.status.${f.status}`)}</Tag>
      ),
    },
    {
      key: 'user',
      title: t('feedback.field.user'),
      render: (_: unknown, f: Feedback) => f.user?.username ?? t('feedback.deletedUser'),
    },
    { key: 'time', title: t('feedback.field.time'), render: (_: unknown, f: Feedback) => formatDateTime(f.createdAt) },
  ];

  return (
    <div className="yd-feedback-page">
      <div className="yd-library-head">
        <div className="yd-library-heading">
          <h1 className="yd-library-title">{t('pages.feedback.title')}</h1>
          <span className="yd-library-count">{admin ? t('feedback.subtitleAdmin') : t('feedback.subtitle')}</span>
        </div>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
          {t('feedback.add')}
        </Button>
      </div>

      <div className="yd-panel">
        <div className="yd-filter-bar">
          <Select<FeedbackStatus>
            allowClear
            placeholder={t('feedback.allStatuses')}
            aria-label={t('feedback.field.status')}
            value={status}
            onChange={(v) => {
              setStatus(v);
              setPage(1);
            }}
            options={FEEDBACK_STATUSES.map((s) => ({ value: s, label: t(`feedback.status.${s}`) }))}
            className="yd-filter-select"
          />
          <Select<FeedbackType>
            allowClear
            placeholder={t('feedback.allTypes')}
            aria-label={t('feedback.field.type')}
            value={type}
            onChange={(v) => {
              setType(v);
              setPage(1);
            }}
            options={FEEDBACK_TYPES.map((s) => ({ value: s, label: t(`feedback.type.${s}`) }))}
            className="yd-filter-select"
          />
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder={t('feedback.search')}
            aria-label={t('feedback.search')}
            value={keyword}
            onChange={(e) => {
              setKeyword(e.target.value);
              setPage(1);
            }}
            className="yd-filter-search"
          />
        </div>

        {list.isError ? (
          <Empty description={errorMessage(list.error)}>
            <Button onClick={() => void list.refetch()}>{t('books.retry')}</Button>
          </Empty>
        ) : list.isPending ? (
          <Skeleton active paragraph={{ rows: 5 }} title={false} />
        ) : items.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('feedback.empty')}>
            <Button onClick={() => setAdding(true)}>{t('feedback.add')}</Button>
          </Empty>
        ) : narrow ? (
          <ul className="yd-feedback-list">
            {items.map((f) => (
              <li key={f.id}>
                <button type="button" onClick={() => setOpenId(f.id)}>
                  <strong>{f.title}</strong>
                  <span className="yd-feedback-list-meta">
                    <Tag color={STATUS_COLORS[f.status]}>{t(`feedback.status.${f.status}`)}</Tag>
                    <span>{t(`feedback.type.${f.type}`)}</span>
                    <span>{f.user?.username ?? t('feedback.deletedUser')}</span>
                    <span>{formatDateTime(f.createdAt)}</span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <Table<Feedback>
            rowKey="id"
            pagination={false}
            dataSource={items}
            columns={columns}
            loading={list.isFetching && list.isPlaceholderData}
            onRow={(f) => ({ onClick: () => setOpenId(f.id), className: 'yd-clickable-row' })}
          />
        )}
        {list.data && list.data.total > PAGE_SIZE && (
          <Pagination
            className="yd-pagination"
            current={page}
            pageSize={PAGE_SIZE}
            total={list.data.total}
            onChange={setPage}
            showSizeChanger={false}
            size={narrow ? 'small' : 'medium'}
          />
        )}
      </div>

      <Modal
        open={adding}
        title={t('feedback.addTitle')}
        footer={null}
        onCancel={() => setAdding(false)}
        destroyOnHidden
        width={600}
      >
        <FeedbackForm
          onCancel={() => setAdding(false)}
          onSent={(f) => {
            setAdding(false);
            void queryClient.invalidateQueries({ queryKey: ['feedback', 'list'] });
            setOpenId(f.id);
          }}
        />
      </Modal>
      <Drawer
        open={openId !== null}
        onClose={() => setOpenId(null)}
        title={t('feedback.detailTitle')}
        size={narrow ? '100%' : 560}
        destroyOnHidden
      >
        {openId !== null && <FeedbackDetail id={openId} admin={admin} />}
      </Drawer>
    </div>
  );
}
