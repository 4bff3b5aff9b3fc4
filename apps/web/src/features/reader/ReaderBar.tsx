import type { ReactNode } from 'react';
import { Button, Popover, Tooltip } from 'antd';
import { BookFilled, BookOutlined, FontSizeOutlined, MenuOutlined, ProfileOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

interface ReaderBarProps {
  bookName: string;
  chapterTitle: string | undefined;
  bookmarked: boolean;
  onToc: () => void;
  onBookmark: () => void;
  /** Null: the side panel is beside the text, no button opens it. */
  onPanel: (() => void) | null;
  /** On phones the settings open in a drawer (onSettingsOpen(true)); elsewhere in a popover with `settings`. */
  narrow: boolean;
  settingsOpen: boolean;
  onSettingsOpen: (open: boolean) => void;
  settings: ReactNode;
  /** After the bookmark: keeping the whole book (translate it, export it). */
  keep?: ReactNode;
  /** Keeping the book on the device for reading offline. */
  offline?: ReactNode;
  /** More tools, before the settings (read aloud). */
  tools?: ReactNode;
}

/** The reader's bar: contents, book and chapter, bookmark, side panel, reading settings. */
export function ReaderBar(props: ReaderBarProps) {
  const { t } = useTranslation();
  const bookmarkLabel = props.bookmarked ? t('reader.bookmark.remove') : t('reader.bookmark.add');
  return (
    <header className="yd-reader-bar">
      <Tooltip title={t('reader.toc.title')}>
        <Button type="text" icon={<MenuOutlined />} aria-label={t('reader.toc.title')} onClick={props.onToc} />
      </Tooltip>
      <div className="yd-reader-title">
        <strong>{props.bookName}</strong>
        {props.chapterTitle && <span>{props.chapterTitle}</span>}
      </div>
      <Tooltip title={bookmarkLabel}>
        <Button
          type="text"
          icon={props.bookmarked ? <BookFilled /> : <BookOutlined />}
          aria-label={bookmarkLabel}
          aria-pressed={props.bookmarked}
          className={props.bookmarked ? 'is-on' : undefined}
          onClick={props.onBookmark}
        />
      </Tooltip>
      {props.keep}
      {props.offline}
      {props.onPanel && (
        <Tooltip title={t('reader.panel.open')}>
          <Button type="text" icon={<ProfileOutlined />} aria-label={t('reader.panel.open')} onClick={props.onPanel} />
        </Tooltip>
      )}
      {props.tools}
      {props.narrow ? (
        <Button
          type="text"
          icon={<FontSizeOutlined />}
          aria-label={t('reader.settings.title')}
          onClick={() => props.onSettingsOpen(true)}
        />
      ) : (
        <Popover
          trigger="click"
          placement="bottomRight"
          open={props.settingsOpen}
          onOpenChange={props.onSettingsOpen}
          content={props.settings}
        >
          <Button type="text" icon={<FontSizeOutlined />} aria-label={t('reader.settings.title')} />
        </Popover>
      )}
    </header>
  );
}
