import { Link } from 'react-router';
import { CloudOutlined, SyncOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { isOffline, useConnectivity } from './connectivity.ts';
import './offline.css';

/**
 * A calm line while Yidu cannot be reached: downloaded books can still be read, and what is done
 * offline is sent once the network is back (how much waits).
 */
export function OfflineBanner() {
  const { t } = useTranslation();
  const offline = useConnectivity(isOffline);
  const pending = useConnectivity((s) => s.pending);
  const syncing = useConnectivity((s) => s.syncing);
  if (!offline && !syncing) return null;
  return (
    <div className="yd-offline-banner" role="status" aria-live="polite">
      {offline ? <CloudOutlined aria-hidden /> : <SyncOutlined spin aria-hidden />}
      <span>{offline ? t('offline.banner') : t('offline.syncing')}</span>
      {offline && pending > 0 && <span className="yd-offline-pending">{t('offline.pending', { count: pending })}</span>}
      {offline && <Link to="/downloads">{t('offline.allDownloads')}</Link>}
    </div>
  );
}
