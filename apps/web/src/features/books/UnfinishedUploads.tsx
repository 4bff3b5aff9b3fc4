import { App, Button, Popconfirm, Tag } from 'antd';
import { FileTextOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { UnfinishedUpload } from '@yidu/shared/books';
import { uploadApi } from '../../api/books.ts';
import { errorMessage } from '../../api/errors.ts';

export const UNFINISHED_KEY = ['upload', 'unfinished'] as const;

/**
 * The uploads that are not a book yet (SPEC §2.4): one whose tab was closed goes on on the server
 * (finished ones reach the library by themselves); here the uploader sees the rest, and continues
 * (the wizard picks the request up at its stage) or discards it.
 */
export function UnfinishedUploads({ onContinue }: { onContinue: (upload: UnfinishedUpload) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const list = useQuery({ queryKey: UNFINISHED_KEY, queryFn: uploadApi.unfinished, staleTime: 0 });
  if (!list.data?.length) return null;

  const discard = async (upload: UnfinishedUpload) => {
    try {
      await uploadApi.discard(upload.requestId);
      void message.success(t('uploadResume.discarded', { name: upload.bookName }));
    } catch (error) {
      void message.error(errorMessage(error));
    }
    void client.invalidateQueries({ queryKey: UNFINISHED_KEY });
  };

  return (
    <section className="yd-unfinished" aria-labelledby="yd-unfinished-title">
      <h2 id="yd-unfinished-title" className="yd-unfinished-title">
        {t('uploadResume.title')}
      </h2>
      <p className="yd-muted yd-unfinished-hint">{t('uploadResume.hint')}</p>
      <ul className="yd-unfinished-list">
        {list.data.map((upload) => (
          <li key={upload.requestId} className="yd-file-row" data-testid="unfinished-upload">
            <FileTextOutlined className="yd-file-icon" />
            <div className="yd-file-body">
              <div className="yd-file-name">{upload.bookName}</div>
              <div className="yd-muted yd-file-meta">
                <span className="yd-unfinished-file">{upload.fileName}</span> <StateTag upload={upload} />
              </div>
            </div>
            <div className="yd-unfinished-actions">
              <Button size="small" type="primary" onClick={() => onContinue(upload)}>
                {t('uploadResume.continue')}
              </Button>
              {upload.status !== 'running' && (
                <Popconfirm
                  title={t('uploadResume.discardConfirm')}
                  okText={t('uploadResume.discard')}
                  cancelText={t('common.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={() => discard(upload)}
                >
                  <Button size="small">{t('uploadResume.discard')}</Button>
                </Popconfirm>
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function StateTag({ upload }: { upload: UnfinishedUpload }) {
  const { t } = useTranslation();
  if (upload.status === 'failed') {
    const stage = t(`books.stageFailed.${upload.stage}`, { defaultValue: t('uploadResume.failed') });
    return <Tag color="error">{stage}</Tag>;
  }
  return upload.status === 'running' ? (
    <Tag color="processing">{t('uploadResume.running')}</Tag>
  ) : (
    <Tag>{t('uploadResume.waiting')}</Tag>
  );
}
