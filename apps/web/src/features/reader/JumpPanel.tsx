import { InputNumber, Slider } from 'antd';
import { useTranslation } from 'react-i18next';

export interface JumpPanelProps {
  page: number;
  pageCount: number;
  percent: number;
  onGo: (page: number) => void;
}

/** Go to a page by number or by position in the book (the pager's popover). */
export function JumpPanel({ page, pageCount, percent, onGo }: JumpPanelProps) {
  const { t } = useTranslation();
  return (
    <div className="yd-jump">
      <label>
        {t('reader.jump.page')}
        <InputNumber
          size="small"
          min={1}
          max={pageCount}
          defaultValue={page}
          aria-label={t('reader.jump.page')}
          onPressEnter={(e) => onGo(Number((e.target as HTMLInputElement).value))}
        />
        <span className="yd-muted">/ {pageCount}</span>
      </label>
      <Slider
        min={0}
        max={100}
        defaultValue={percent}
        tooltip={{ formatter: (v) => `${v}%` }}
        onChangeComplete={(v: number) => onGo(Math.max(1, Math.round((v / 100) * pageCount)))}
        aria-label={t('reader.jump.percent')}
      />
    </div>
  );
}
