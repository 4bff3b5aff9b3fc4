import { useEffect, useState, type ReactNode } from 'react';
import {
  App,
  Button,
  Checkbox,
  Drawer,
  Dropdown,
  Form,
  Grid,
  Input,
  Modal,
  Skeleton,
  Switch,
  Tag,
  Typography,
  Upload,
} from 'antd';
import {
  CameraOutlined,
  CheckOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  GlobalOutlined,
  LockOutlined,
  PlusOutlined,
  ReadOutlined,
  ShareAltOutlined,
  SyncOutlined,
  TranslationOutlined,
} from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { BookDetail, BookSummary } from '@yidu/shared/books';
import { booksApi, type SyncDirection } from '../../api/books.ts';
import { errorMessage } from '../../api/errors.ts';
import { BookCover } from './BookCover.tsx';
import { useAuthorName } from './BookCard.tsx';
import { DeleteBookDialog } from './DeleteBookDialog.tsx';
import { confirmPublic } from './confirmPublic.tsx';
import { COVER_ACCEPT, isCoverFile } from './fileRules.ts';
import { KeepBookDialog } from '../keep/KeepBookEntry.tsx';
import { DownloadControl } from '../offline/DownloadControl.tsx';
import { ObsidianButton } from '../integrations/ObsidianButton.tsx';
import {
  formatLabel,
  useFormatDate,
  useFormatNumber,
  useLanguageNames,
  useOpenBook,
  useReadingLanguage,
} from './bookUtils.ts';

interface BookDetailModalProps {
  /** The book to show (from a list); null when closed. */
  book: BookSummary | null;
  onClose: () => void;
  /** After a change: the new summary, or null when the book left the library. */
  onChanged: (book: BookSummary | null) => void;
}

interface InfoValues {
  bookName: string;
  bookAuthor: string;
  bookDescribe: string;
  category: string;
  applyPublic: boolean;
}

/** The book detail popup of SPEC §2.4: a modal on wide screens, a bottom drawer on phones. */
export function BookDetailModal({ book, onClose, onChanged }: BookDetailModalProps) {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  const mobile = screens.md === false;
  const open = book !== null;
  const body = book ? <BookDetailBody key={book.bookCode} initial={book} onChanged={onChanged} /> : null;

  if (mobile) {
    return (
      <Drawer
        open={open}
        onClose={onClose}
        placement="bottom"
        size="92%"
        title={null}
        destroyOnHidden
        className="yd-book-drawer"
        closable={{ 'aria-label': t('books.detail.close') }}
      >
        {body}
      </Drawer>
    );
  }
  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      width={820}
      destroyOnHidden
      title={null}
      className="yd-book-modal"
      closable={{ 'aria-label': t('books.detail.close') }}
    >
      {body}
    </Modal>
  );
}

function BookDetailBody({ initial, onChanged }: { initial: BookSummary; onChanged: (b: BookSummary | null) => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const openBook = useOpenBook();
  const navigate = useNavigate();
  const formatDate = useFormatDate();
  const formatNumber = useFormatNumber();
  const { nameOf } = useLanguageNames();
  const authorName = useAuthorName();
  const [book, setBook] = useState<BookSummary>(initial);
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [keeping, setKeeping] = useState(false);
  const readingLanguage = useReadingLanguage();
  const [form] = Form.useForm<InfoValues>();

  const detail = useQuery({
    queryKey: ['books', 'detail', initial.bookCode],
    queryFn: () => booksApi.detail(initial.bookCode),
  });
  useEffect(() => {
    if (detail.data) setBook((current) => ({ ...current, ...stripDetail(detail.data) }));
  }, [detail.data]);

  const changed = (next: BookSummary) => {
    setBook((current) => ({ ...current, ...next }));
    onChanged(next);
    void queryClient.invalidateQueries({ queryKey: ['books', 'detail', initial.bookCode] });
  };

  /** Runs one action with its own success and failure messages (SPEC §8.4). */
  const run = async (name: string, action: () => Promise<void>, success: string, failure: string) => {
    setBusy(name);
    try {
      await action();
      void message.success(success);
    } catch (error) {
      void message.error(`${failure}: ${errorMessage(error)}`);
    } finally {
      setBusy(null);
    }
  };

  const add = () =>
    run(
      'add',
      async () => changed(await booksApi.add(book.bookCode)),
      t('books.detail.added'),
      t('books.detail.addFailed'),
    );

  const uploadCover = (file: File) =>
    run(
      'cover',
      async () => {
        let next: BookSummary | null = null;
        if (book.inLibrary) next = await booksApi.cover(book.bookCode, 'user', file);
        if (book.isOwner) next = await booksApi.cover(book.bookCode, 'public', file);
        if (next) changed(next);
      },
      t('books.cover.updated'),
      t('books.cover.failed'),
    );

  const setVisibility = (publicBook: boolean) => {
    const apply = () =>
      run(
        'visibility',
        async () => changed(await booksApi.updatePublic({ bookCode: book.bookCode, bookStatus: publicBook ? 1 : 0 })),
        t('books.visibility.changed'),
        t('books.visibility.failed'),
      );
    if (publicBook) confirmPublic(modal, t, apply);
    else void apply();
  };

  const sync = (direction: SyncDirection) =>
    run(
      'sync',
      async () => changed(await booksApi.sync(book.bookCode, direction)),
      t('books.sync.done'),
      t('books.sync.failed'),
    );

  const startEditing = () => {
    form.setFieldsValue({
      bookName: book.bookName,
      // The server's default author is shown as the (translated) placeholder instead.
      bookAuthor: book.bookAuthor === 'Anonymous' ? '' : book.bookAuthor,
      bookDescribe: book.bookDescribe,
      category: book.category ?? '',
      applyPublic: book.isOwner,
    });
    setEditing(true);
  };
  const saveInfo = (values: InfoValues) =>
    run(
      'info',
      async () => {
        const body = {
          bookCode: book.bookCode,
          bookName: values.bookName.trim(),
          bookAuthor: values.bookAuthor?.trim() ?? '',
          bookDescribe: values.bookDescribe?.trim() ?? '',
          category: values.category?.trim() || null,
        };
        let next: BookSummary | null = null;
        if (book.inLibrary) next = await booksApi.updateCopy(body);
        if (book.isOwner && (values.applyPublic || !book.inLibrary)) next = await booksApi.updatePublic(body);
        if (next) changed(next);
        setEditing(false);
      },
      t('books.info.updated'),
      t('books.info.failed'),
    );

  const remove = async (keepPublic: boolean) => {
    try {
      await booksApi.removeCopy(book.bookCode, keepPublic);
      void message.success(t('books.delete.done'));
      setDeleting(false);
      onChanged(null);
    } catch (error) {
      void message.error(`${t('books.delete.failed')}: ${errorMessage(error)}`);
    }
  };

  const author = authorName(book.bookAuthor);
  const language = nameOf(book.originalLanguage);
  const chapters = detail.data?.chapters ?? [];
  const pages = detail.data?.sourcePages ?? book.pageCount;
  const canEdit = book.inLibrary || book.isOwner;
  const syncItems = [
    ...(book.inLibrary ? [{ key: 'fromPublic', label: t('books.sync.fromPublic') }] : []),
    ...(book.isOwner && book.inLibrary ? [{ key: 'toPublic', label: t('books.sync.toPublic') }] : []),
  ];

  return (
    <div className="yd-detail">
      <div className="yd-detail-cover">
        <BookCover name={book.bookName} author={author} coverUrl={book.coverUrl} size="large" />
        {canEdit && (
          <Upload
            accept={COVER_ACCEPT}
            showUploadList={false}
            maxCount={1}
            beforeUpload={(file) => {
              if (!isCoverFile(file)) {
                void message.error(t('books.cover.invalidType'));
                return Upload.LIST_IGNORE;
              }
              void uploadCover(file);
              return false;
            }}
          >
            <Button size="small" type="text" icon={<CameraOutlined />} loading={busy === 'cover'} block>
              {t('books.cover.edit')}
            </Button>
          </Upload>
        )}
      </div>

      <div className="yd-detail-main">
        {editing ? (
          <Form<InfoValues> form={form} layout="vertical" onFinish={saveInfo} name="book-info" requiredMark={false}>
            <Form.Item
              name="bookName"
              label={t('books.info.name')}
              rules={[{ required: true, whitespace: true, message: t('books.info.nameRequired') }]}
            >
              <Input maxLength={300} />
            </Form.Item>
            <Form.Item name="bookAuthor" label={t('books.info.author')}>
              <Input maxLength={200} placeholder={t('books.anonymous')} />
            </Form.Item>
            <Form.Item name="category" label={t('books.info.category')}>
              <Input maxLength={60} placeholder={t('books.info.categoryPlaceholder')} />
            </Form.Item>
            <Form.Item name="bookDescribe" label={t('books.info.description')}>
              <Input.TextArea maxLength={5000} autoSize={{ minRows: 3, maxRows: 8 }} />
            </Form.Item>
            {book.isOwner && book.inLibrary && (
              <Form.Item name="applyPublic" valuePropName="checked">
                <Checkbox>{t('books.info.applyPublic')}</Checkbox>
              </Form.Item>
            )}
            <div className="yd-detail-form-actions">
              <Button onClick={() => setEditing(false)}>{t('common.cancel')}</Button>
              <Button type="primary" htmlType="submit" loading={busy === 'info'}>
                {t('books.info.save')}
              </Button>
            </div>
          </Form>
        ) : (
          <>
            <Typography.Title level={3} className="yd-detail-title">
              {book.bookName}
            </Typography.Title>
            <div className="yd-detail-author">{author}</div>
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
              {book.inLibrary && (
                <Tag icon={<CheckOutlined />} color="blue" variant="filled">
                  {t('books.detail.inLibrary')}
                </Tag>
              )}
              {book.isOwner && <Tag variant="outlined">{t('books.detail.uploadedByYou')}</Tag>}
            </div>

            <div className="yd-detail-actions">
              <Button type="primary" icon={<ReadOutlined />} onClick={() => openBook(book)}>
                {t('books.detail.read')}
              </Button>
              {!book.inLibrary && (
                <Button icon={<PlusOutlined />} onClick={() => void add()} loading={busy === 'add'}>
                  {t('books.detail.add')}
                </Button>
              )}
              {canEdit && (
                <Button icon={<EditOutlined />} onClick={startEditing}>
                  {t('books.detail.edit')}
                </Button>
              )}
              <Button icon={<TranslationOutlined />} onClick={() => setKeeping(true)}>
                {t('keep.translateAction')}
              </Button>
              <Button icon={<DownloadOutlined />} onClick={() => setKeeping(true)}>
                {t('keep.exportAction')}
              </Button>
              <DownloadControl
                bookCode={book.bookCode}
                bookName={book.bookName}
                language={book.readLanguage ?? readingLanguage}
                variant="button"
              />
              <ObsidianButton bookCode={book.bookCode} bookName={book.bookName} />
              {(book.isOwner || book.bookStatus === 1) && (
                <Button
                  icon={<ShareAltOutlined />}
                  onClick={() => void navigate(`/book/share?bookCode=${encodeURIComponent(book.bookCode)}`)}
                >
                  {t('share.action')}
                </Button>
              )}
              {syncItems.length > 0 && (
                <Dropdown
                  trigger={['click']}
                  menu={{ items: syncItems, onClick: ({ key }) => void sync(key as SyncDirection) }}
                >
                  <Button icon={<SyncOutlined />} loading={busy === 'sync'}>
                    {t('books.sync.action')}
                  </Button>
                </Dropdown>
              )}
              {canEdit && (
                <Button danger icon={<DeleteOutlined />} onClick={() => setDeleting(true)}>
                  {t('books.detail.delete')}
                </Button>
              )}
            </div>

            {book.isOwner && (
              <label className="yd-detail-visibility">
                <Switch
                  checked={book.bookStatus === 1}
                  loading={busy === 'visibility'}
                  onChange={(checked) => setVisibility(checked)}
                  aria-label={t('books.visibility.label')}
                />
                <span>
                  <strong>{t('books.visibility.label')}</strong>
                  <span className="yd-muted">
                    {book.bookStatus === 1 ? t('books.visibility.publicHint') : t('books.visibility.privateHint')}
                  </span>
                </span>
              </label>
            )}

            {book.bookDescribe ? (
              <Typography.Paragraph
                className="yd-detail-desc"
                ellipsis={{ rows: 5, expandable: true, symbol: t('books.detail.more') }}
              >
                {book.bookDescribe}
              </Typography.Paragraph>
            ) : (
              <Typography.Paragraph type="secondary" className="yd-detail-desc">
                {t('books.detail.noDescription')}
              </Typography.Paragraph>
            )}
          </>
        )}

        <dl className="yd-detail-facts">
          <Fact label={t('books.detail.format')}>{formatLabel(book.format)}</Fact>
          <Fact label={t('books.detail.language')}>{language ?? t('books.detail.unknown')}</Fact>
          <Fact label={t('books.detail.pages')}>{formatNumber(pages)}</Fact>
          <Fact label={t('books.detail.chapters')}>{formatNumber(book.chapterCount)}</Fact>
          <Fact label={t('books.readers')}>{formatNumber(book.readers)}</Fact>
          <Fact label={t('books.detail.updated')}>{formatDate(book.updateAt)}</Fact>
        </dl>

        <section className="yd-detail-toc" aria-label={t('books.detail.toc')}>
          <h4>{t('books.detail.toc')}</h4>
          {detail.isPending ? (
            <Skeleton active paragraph={{ rows: 4 }} title={false} />
          ) : detail.isError ? (
            <Typography.Text type="secondary">{errorMessage(detail.error)}</Typography.Text>
          ) : chapters.length === 0 ? (
            <Typography.Text type="secondary">{t('books.detail.noToc')}</Typography.Text>
          ) : (
            <ol className="yd-toc-list">
              {chapters.map((chapter) => (
                <li key={chapter.index} style={{ paddingInlineStart: Math.max(0, chapter.level - 1) * 16 }}>
                  <span className="yd-toc-title">{chapter.title || t('books.detail.untitled')}</span>
                  <span className="yd-toc-page">{chapter.page}</span>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>

      <DeleteBookDialog books={deleting ? [book] : null} onCancel={() => setDeleting(false)} onConfirm={remove} />
      <KeepBookDialog
        open={keeping}
        onClose={() => setKeeping(false)}
        bookCode={book.bookCode}
        bookName={book.bookName}
        originalLanguage={book.originalLanguage}
        language={book.readLanguage ?? readingLanguage}
      />
    </div>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="yd-fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function stripDetail(detail: BookDetail): BookSummary {
  const { chapters: _chapters, sourcePages: _sourcePages, ...summary } = detail;
  return summary;
}
