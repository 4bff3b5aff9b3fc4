import type { ReactNode } from 'react';
import { Button, Empty, Popconfirm, Segmented, Spin, Tag } from 'antd';
import {
  BookOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  HighlightOutlined,
  RobotOutlined,
  UnderlineOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Mark } from '@yidu/shared/marks';
import type { AiAnnotation } from '@yidu/shared/ai';
import { SearchPanel } from './SearchPanel.tsx';
import { GlossaryPanel } from '../glossary/GlossaryPanel.tsx';

export type PanelTab = 'marks' | 'ai' | 'search' | 'glossary';

export interface SidePanelProps {
  tab: PanelTab;
  onTab: (tab: PanelTab) => void;
  bookCode: string;
  language: string;
  page: number;
  features: ReadonlySet<string>;
  marks: Mark[];
  marksLoading: boolean;
  onJump: (page: number, blockId?: string | null) => void;
  onDelete: (mark: Mark) => void;
  onExport: () => void;
  aiNotes: AiAnnotation[] | undefined;
  aiNotesLoading: boolean;
  onRequestAiNotes: () => void;
}

const KIND_ICON: Record<Mark['kind'], ReactNode> = {
  annotation: <EditOutlined />,
  highlight: <HighlightOutlined />,
  underline: <UnderlineOutlined />,
  bookmark: <BookOutlined />,
};

/** Marks, AI notes, search and the glossary: a column beside the text in advanced mode, a drawer otherwise. */
export function SidePanel(props: SidePanelProps) {
  const { t } = useTranslation();
  const options = [
    { value: 'marks', label: t('reader.panel.marks') },
    ...(props.features.has('annotation') ? [{ value: 'ai', label: t('reader.panel.ai') }] : []),
    { value: 'search', label: t('reader.panel.search') },
    { value: 'glossary', label: t('glossary.tab') },
  ];
  return (
    <div className="yd-side">
      <Segmented block value={props.tab} onChange={(v) => props.onTab(v as PanelTab)} options={options} />
      <div className="yd-side-body">
        {props.tab === 'marks' && <MarksList {...props} />}
        {props.tab === 'ai' && props.features.has('annotation') && <AiNotes {...props} />}
        {props.tab === 'search' && <SearchPanel {...props} />}
        {props.tab === 'glossary' && <GlossaryPanel bookCode={props.bookCode} language={props.language} />}
      </div>
    </div>
  );
}

function MarksList({ marks, marksLoading, onJump, onDelete, onExport }: SidePanelProps) {
  const { t } = useTranslation();
  if (marksLoading) return <Spin />;
  return (
    <>
      <div className="yd-side-actions">
        <Button size="small" icon={<DownloadOutlined />} onClick={onExport} disabled={marks.length === 0}>
          {t('reader.marks.export')}
        </Button>
      </div>
      {marks.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('reader.marks.empty')} />
      ) : (
        <ul className="yd-mark-list">
          {marks.map((mark) => (
            <li key={mark.id} className={`yd-mark yd-mark-${mark.kind}`} data-kind={mark.kind}>
              <button type="button" className="yd-mark-main" onClick={() => onJump(mark.page, mark.blockId)}>
                <span className={`yd-mark-icon${mark.color ? ` yd-c-${mark.color}` : ''}`}>{KIND_ICON[mark.kind]}</span>
                <span className="yd-mark-text">
                  <span className="yd-mark-kind">
                    {t(`reader.marks.kind.${mark.kind}`)} · {t('reader.pageN', { page: mark.page })}
                  </span>
                  {mark.quote && <q>{mark.quote}</q>}
                  {mark.content && <span className="yd-mark-content">{mark.content}</span>}
                </span>
              </button>
              <Popconfirm
                title={t('reader.marks.deleteConfirm')}
                okText={t('reader.marks.delete')}
                cancelText={t('common.cancel')}
                onConfirm={() => onDelete(mark)}
              >
                <Button type="text" size="small" icon={<DeleteOutlined />} aria-label={t('reader.marks.delete')} />
              </Popconfirm>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function AiNotes({ aiNotes, aiNotesLoading, onRequestAiNotes, onJump, page }: SidePanelProps) {
  const { t } = useTranslation();
  return (
    <>
      <div className="yd-side-actions">
        <Button size="small" icon={<RobotOutlined />} loading={aiNotesLoading} onClick={onRequestAiNotes}>
          {aiNotes ? t('reader.aiNotes.again') : t('reader.aiNotes.request')}
        </Button>
      </div>
      {!aiNotes ? (
        <p className="yd-muted">{t('reader.aiNotes.hint')}</p>
      ) : aiNotes.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('reader.aiNotes.none')} />
      ) : (
        <ul className="yd-mark-list">
          {aiNotes.map((note, i) => (
            <li key={`${note.blockId}-${i}`} className="yd-mark">
              <button type="button" className="yd-mark-main" onClick={() => onJump(page, note.blockId)}>
                <span className="yd-mark-text">
                  <span className="yd-mark-kind">
                    <Tag bordered={false}>{t(`reader.aiNotes.kind.${note.kind}`)}</Tag>
                    <strong>{note.term}</strong>
                  </span>
                  <span className="yd-mark-content">{note.note}</span>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
