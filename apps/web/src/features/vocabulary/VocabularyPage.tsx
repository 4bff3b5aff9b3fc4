import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Dropdown,
  Empty,
  Input,
  Pagination,
  Popconfirm,
  Select,
  Skeleton,
  Switch,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import {
  DeleteOutlined,
  DownloadOutlined,
  EnvironmentOutlined,
  PlayCircleOutlined,
  SendOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/errors.ts';
import { readerPath } from '../../api/reader.ts';
import { vocabularyApi, type VocabularyWord } from '../../api/vocabulary.ts';
import { usePageTitle } from '../../shell/usePageTitle.ts';
import { useFormatDate } from '../books/bookUtils.ts';
import { saveBlob } from '../admin/download.ts';
import { useDebounced } from '../books/useDebounced.ts';
import { ReviewSession } from './ReviewSession.tsx';
import { SentenceWithWord } from './SentenceWithWord.tsx';
import '../books/books.css';
import './vocabulary.css';

const PAGE_SIZE = 20;

function WordItem({ word, onChanged }: { word: VocabularyWord; onChanged: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const formatDate = useFormatDate();
  const due = Date.parse(word.dueAt) <= Date.now();
  const langTag = word.sourceLanguage === 'jp' ? 'ja' : word.sourceLanguage;

  const remove = async () => {
    try {
      await vocabularyApi.remove(word.id);
      void message.success(t('vocabulary.deleted'));
      onChanged();
    } catch (error) {
      void message.error(errorMessage(error));
    }
  };
  const saveNote = async (note: string) => {
    if (note === word.note) return;
    try {
      await vocabularyApi.edit(word.id, { note });
      void message.success(t('vocabulary.noteSaved'));
      onChanged();
    } catch (error) {
      void message.error(errorMessage(error));
    }
  };

  return (
    <li className="yd-word" data-word={word.text}>
      <div className="yd-word-head">
        <strong className="yd-word-text" lang={langTag}>
          {word.text}
        </strong>
        {word.pronunciation && <span className="yd-word-say">{word.pronunciation}</span>}
        {word.partOfSpeech && <Tag bordered={false}>{word.partOfSpeech}</Tag>}
        <span className="yd-word-due">
          <Tooltip title={t('vocabulary.col.next')}>
            <Tag color={due ? 'orange' : 'default'} bordered={false}>
              {due ? t('vocabulary.dueNow') : formatDate(word.dueAt)}
            </Tag>
          </Tooltip>
          <span className="yd-muted">
            {word.box === 0 ? t('vocabulary.new') : t('vocabulary.box', { box: word.box })}
          </span>
        </span>
      </div>
      <p className="yd-word-meaning">{word.meaning}</p>
      {word.sentence && (
        <blockquote className="yd-word-sentence">
          <SentenceWithWord sentence={word.sentence} word={word.text} lang={langTag} />
        </blockquote>
      )}
      <Typography.Paragraph
        className="yd-word-note"
        type={word.note ? undefined : 'secondary'}
        editable={{
          onChange: (value) => void saveNote(value.trim()),
          tooltip: t('vocabulary.note'),
          text: word.note,
        }}
      >
        {word.note || t('vocabulary.notePlaceholder')}
      </Typography.Paragraph>
      <div className="yd-word-foot">
        <span className="yd-muted">
          {t('vocabulary.bookTitle', { title: word.bookTitle })}
          {word.chapterTitle ? ` · ${word.chapterTitle}` : ''} · {t('vocabulary.page', { page: word.page })}
        </span>
        <span className="yd-word-actions">
          {word.bookCode ? (
            <Button
              size="small"
              type="link"
              icon={<EnvironmentOutlined />}
              onClick={() =>
                void navigate(readerPath(word.bookCode, word.language), {
                  state: { jumpTo: { page: word.page, blockId: word.blockId } },
                })
              }
            >
              {t('vocabulary.jump')}
            </Button>
          ) : (
            <span className="yd-muted">{t('vocabulary.bookGone')}</span>
          )}
          <Popconfirm
            title={t('vocabulary.deleteConfirm', { word: word.text })}
            okText={t('vocabulary.delete')}
            cancelText={t('common.cancel')}
            onConfirm={() => void remove()}
          >
            <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={t('vocabulary.delete')} />
          </Popconfirm>
        </span>
      </div>
    </li>
  );
}

const AnkiPanel = lazy(() => import('./anki/AnkiPanel.tsx').then((m) => ({ default: m.AnkiPanel })));

/** /vocabulary: the words looked up and saved while reading; filter, review on schedule, export for Anki. */
export default function VocabularyPage() {
  const { t } = useTranslation();
  usePageTitle(t('vocabulary.title'));
  const { message } = App.useApp();
  const client = useQueryClient();
  const [bookCode, setBookCode] = useState<string>('');
  const [search, setSearch] = useState('');
  const [dueOnly, setDueOnly] = useState(false);
  const [page, setPage] = useState(1);
  const [reviewing, setReviewing] = useState(false);
  const [anki, setAnki] = useState(false);
  const q = useDebounced(search, 300);
  const list = useQuery({
    queryKey: ['vocabulary', bookCode, q, dueOnly, page],
    queryFn: () => vocabularyApi.list({ bookCode, q, due: dueOnly, page, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => void client.invalidateQueries({ queryKey: ['vocabulary'] });
  const data = list.data;
  const filtered = Boolean(bookCode || q || dueOnly);

  const exportAs = async (format: 'csv' | 'tsv') => {
    try {
      const blob = await vocabularyApi.export(format, bookCode || undefined);
      const book = data?.books.find((b) => b.bookCode === bookCode)?.bookTitle;
      const name = book ? `${book.replace(/[\\/:*?"<>|]+/g, ' ').trim()} - ` : '';
      saveBlob(blob, `${name}${t('vocabulary.title')}.${format}`);
    } catch (error) {
      void message.error(t('vocabulary.exportFailed', { reason: errorMessage(error) }));
    }
  };

  return (
    <div className="yd-vocabulary-page">
      <div className="yd-library-head">
        <div className="yd-library-heading">
          <h1 className="yd-library-title">{t('vocabulary.title')}</h1>
          <span className="yd-library-count">
            {data ? `${t('vocabulary.count', { count: data.total })} · ` : ''}
            {t('vocabulary.subtitle')}
          </span>
        </div>
        <div className="yd-vocabulary-actions">
          <Button
            type="primary"
            icon={<PlayCircleOutlined />}
            disabled={!data || data.due === 0}
            onClick={() => setReviewing(true)}
          >
            {t('vocabulary.review')}
            {data && data.due > 0 ? ` · ${t('vocabulary.due', { count: data.due })}` : ''}
          </Button>
          <Button icon={<SendOutlined />} onClick={() => setAnki(true)}>
            {t('anki.open')}
          </Button>
          <Tooltip title={t('vocabulary.exportHint')} placement="bottomRight">
            <Dropdown
              trigger={['click']}
              menu={{
                items: [
                  { key: 'csv', label: t('vocabulary.exportCsv') },
                  { key: 'tsv', label: t('vocabulary.exportTsv') },
                ],
                onClick: ({ key }) => void exportAs(key as 'csv' | 'tsv'),
              }}
            >
              <Button icon={<DownloadOutlined />} disabled={!data || data.total === 0}>
                {t('vocabulary.export')}
              </Button>
            </Dropdown>
          </Tooltip>
        </div>
      </div>

      <div className="yd-panel yd-vocabulary-panel">
        <div className="yd-vocabulary-filters">
          <Select<string>
            value={bookCode}
            onChange={(value) => {
              setBookCode(value);
              setPage(1);
            }}
            options={[
              { value: '', label: t('vocabulary.allBooks') },
              ...(data?.books ?? []).map((b) => ({
                value: b.bookCode,
                label: `${t('vocabulary.bookTitle', { title: b.bookTitle })} ${b.words}`,
              })),
            ]}
            style={{ minWidth: 200 }}
            aria-label={t('vocabulary.allBooks')}
          />
          <Input.Search
            allowClear
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setPage(1);
            }}
            placeholder={t('vocabulary.search')}
            style={{ maxWidth: 320 }}
          />
          <label className="yd-switch-inline">
            <Switch
              size="small"
              checked={dueOnly}
              onChange={(checked) => {
                setDueOnly(checked);
                setPage(1);
              }}
            />
            <span>{t('vocabulary.dueOnly')}</span>
          </label>
        </div>
        {!data ? (
          <Skeleton active paragraph={{ rows: 6 }} />
        ) : data.items.length === 0 ? (
          <Empty description={filtered ? t('vocabulary.noMatch') : t('vocabulary.empty')} />
        ) : (
          <>
            <ul className="yd-word-list">
              {data.items.map((word) => (
                <WordItem key={word.id} word={word} onChanged={refresh} />
              ))}
            </ul>
            {data.total > PAGE_SIZE && (
              <Pagination
                current={page}
                pageSize={PAGE_SIZE}
                total={data.total}
                onChange={setPage}
                showSizeChanger={false}
                align="center"
              />
            )}
          </>
        )}
      </div>
      {anki && (
        <Suspense fallback={null}>
          <AnkiPanel open onClose={() => setAnki(false)} bookCode={bookCode || undefined} />
        </Suspense>
      )}
      {reviewing && (
        <ReviewSession
          bookCode={bookCode || undefined}
          onClose={() => {
            setReviewing(false);
            refresh();
          }}
        />
      )}
    </div>
  );
}
