import { Drawer } from 'antd';
import { useTranslation } from 'react-i18next';
import type { BookDetail } from '@yidu/shared/books';

interface TocDrawerProps {
  chapters: BookDetail['chapters'];
  /** The chapter of the page on screen. */
  current: number | undefined;
  open: boolean;
  onClose: () => void;
  onGo: (page: number) => void;
}

/** The table of contents, from the left: each chapter with its first page. */
export function TocDrawer({ chapters, current, open, onClose, onGo }: TocDrawerProps) {
  const { t } = useTranslation();
  return (
    <Drawer title={t('reader.toc.title')} placement="left" open={open} onClose={onClose} className="yd-reader-drawer">
      {chapters.length === 0 ? (
        <p className="yd-muted">{t('reader.toc.empty')}</p>
      ) : (
        <ol className="yd-toc">
          {chapters.map((c) => (
            <li key={c.index} style={{ paddingInlineStart: Math.max(0, c.level - 1) * 14 }}>
              <button
                type="button"
                className={current === c.index ? 'is-current' : undefined}
                onClick={() => {
                  onClose();
                  onGo(c.page);
                }}
              >
                <span>{c.title}</span>
                <small>{c.page}</small>
              </button>
            </li>
          ))}
        </ol>
      )}
    </Drawer>
  );
}
