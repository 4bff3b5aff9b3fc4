import { Button, Tooltip } from 'antd';
import { ColumnWidthOutlined, RotateRightOutlined, ZoomInOutlined, ZoomOutOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

interface PdfToolbarProps {
  page: number;
  pageCount: number;
  percent: number;
  fitted: boolean;
  onZoomIn: () => void;
  onZoomOut: () => void;
  onFit: () => void;
  onRotate: () => void;
}

/** Zoom, fit to width, turn, and which page is being read. */
export function PdfToolbar(props: PdfToolbarProps) {
  const { t } = useTranslation();
  const tool = (label: string, icon: React.ReactNode, onClick: () => void, pressed?: boolean) => (
    <Tooltip title={label}>
      <Button type="text" size="small" icon={icon} aria-label={label} aria-pressed={pressed} onClick={onClick} />
    </Tooltip>
  );
  return (
    <div className="yd-pdf-toolbar" role="toolbar" aria-label={t('originalPage.tools')}>
      {tool(t('originalPage.zoomOut'), <ZoomOutOutlined />, props.onZoomOut)}
      <span className="yd-pdf-zoom" aria-live="polite">
        {props.percent}%
      </span>
      {tool(t('originalPage.zoomIn'), <ZoomInOutlined />, props.onZoomIn)}
      {tool(t('originalPage.fitWidth'), <ColumnWidthOutlined />, props.onFit, props.fitted)}
      {tool(t('originalPage.rotate'), <RotateRightOutlined />, props.onRotate)}
      <span className="yd-pdf-where">{t('originalPage.pageOf', { page: props.page, count: props.pageCount })}</span>
    </div>
  );
}
