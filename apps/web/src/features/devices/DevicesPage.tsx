import { useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Empty, Input, Popconfirm, QRCode, Skeleton, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { devicesApi, type CreatedDevicePassword, type DevicePassword } from '../../api/devices.ts';
import { errorMessage } from '../../api/errors.ts';
import { usePageTitle } from '../../shell/usePageTitle.ts';
import { useAuth } from '../../stores/auth.ts';
import { useFormatDate } from '../books/bookUtils.ts';
import '../books/books.css';
import '../account/account.css';
import './devices.css';

const QUERY_KEY = ['devicePasswords'];

/** The addresses a device is given: this page's own origin, which is how the reader reached Yidu. */
export function catalogAddresses(origin: string) {
  return { opds: `${origin}/opds`, opdsV2: `${origin}/opds/v2`, kosync: `${origin}/kosync` };
}

/** A host a device on the network cannot reach: the computer itself. */
const isLoopback = (hostname: string) =>
  hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127\./.test(hostname);

function Copyable({ label, value }: { label: string; value: string }) {
  return (
    <div className="yd-device-field">
      <span className="yd-muted">{label}</span>
      <Typography.Text code copyable className="yd-device-value">
        {value}
      </Typography.Text>
    </div>
  );
}

function Section({ id, title, hint, children }: { id: string; title: string; hint?: string; children: ReactNode }) {
  return (
    <section id={id} className="yd-panel yd-settings-section" aria-labelledby={`${id}-title`}>
      <header className="yd-settings-section-head">
        <Typography.Title level={4} id={`${id}-title`} className="yd-section-title">
          {title}
        </Typography.Title>
        {hint && <span className="yd-muted">{hint}</span>}
      </header>
      {children}
    </section>
  );
}

function PasswordItem({ device, onRevoked }: { device: DevicePassword; onRevoked: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const formatDate = useFormatDate();
  const [busy, setBusy] = useState(false);
  const revoke = async () => {
    setBusy(true);
    try {
      await devicesApi.revoke(device.id);
      void message.success(t('devices.revoked'));
      onRevoked();
    } catch (error) {
      void message.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className="yd-device-item" data-device={device.name}>
      <div>
        <strong>{device.name}</strong>
        <div className="yd-muted">
          {t('devices.createdAt', { date: formatDate(device.createdAt) })} ·{' '}
          {device.lastUsedAt
            ? t('devices.lastUsed', { date: formatDate(device.lastUsedAt), by: device.lastUsedBy ?? '' })
            : t('devices.neverUsed')}
        </div>
      </div>
      <Popconfirm
        title={t('devices.revokeConfirm', { name: device.name })}
        okText={t('devices.revoke')}
        cancelText={t('common.cancel')}
        okButtonProps={{ danger: true }}
        onConfirm={revoke}
      >
        <Button danger loading={busy}>
          {t('devices.revoke')}
        </Button>
      </Popconfirm>
    </li>
  );
}

function DevicePasswords({ username }: { username: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const list = useQuery({ queryKey: QUERY_KEY, queryFn: devicesApi.list });
  const [name, setName] = useState('');
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedDevicePassword | null>(null);
  const refresh = () => void client.invalidateQueries({ queryKey: QUERY_KEY });
  const create = async () => {
    if (!name.trim()) return;
    setCreating(true);
    try {
      setCreated(await devicesApi.create(name.trim()));
      setName('');
      void message.success(t('devices.created'));
      refresh();
    } catch (error) {
      void message.error(errorMessage(error));
    } finally {
      setCreating(false);
    }
  };
  return (
    <div className="yd-device-passwords">
      <div className="yd-device-create">
        <Input
          aria-label={t('devices.namePlaceholder')}
          placeholder={t('devices.namePlaceholder')}
          value={name}
          maxLength={60}
          onChange={(e) => setName(e.target.value)}
          onPressEnter={() => void create()}
        />
        <Button type="primary" loading={creating} disabled={!name.trim()} onClick={() => void create()}>
          {t('devices.create')}
        </Button>
      </div>
      {created && (
        <Alert
          type="success"
          showIcon
          closable
          onClose={() => setCreated(null)}
          className="yd-device-created"
          message={t('devices.createdFor', { name: created.name })}
          description={
            <div className="yd-device-secret">
              <Copyable label={t('devices.username')} value={created.username} />
              <Copyable label={t('devices.password')} value={created.password} />
              <span>{t('devices.shownOnce')}</span>
            </div>
          }
        />
      )}
      {list.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : (list.data ?? []).length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('devices.none')} />
      ) : (
        <ul className="yd-device-list">
          {list.data!.map((device) => (
            <PasswordItem key={device.id} device={device} onRevoked={refresh} />
          ))}
        </ul>
      )}
      {username && <span className="yd-muted">{t('devices.usernameIs', { username })}</span>}
    </div>
  );
}

/** Numbered steps, each a sentence with the addresses filled in. */
function Steps({ steps }: { steps: string[] }) {
  return (
    <ol className="yd-device-steps">
      {steps.map((step) => (
        <li key={step}>{step}</li>
      ))}
    </ol>
  );
}

/**
 * /devices, in the personal center: the catalog addresses (with a QR code), device passwords, and
 * how to set up KOReader, Moon+ Reader and KyBook / Readest.
 */
export default function DevicesPage() {
  const { t } = useTranslation();
  usePageTitle(t('devices.title'));
  const user = useAuth((s) => s.user);
  const { opds, opdsV2, kosync } = catalogAddresses(window.location.origin);
  const username = user?.account ?? '';
  const values = { opds, opdsV2, kosync, username };
  const stepsOf = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, i) => t(`devices.${prefix}${i + 1}`, values));
  return (
    <div className="yd-settings-page yd-devices-page">
      <div className="yd-library-head">
        <div className="yd-library-heading">
          <h1 className="yd-library-title">{t('devices.title')}</h1>
          <span className="yd-library-count">{t('devices.subtitle')}</span>
        </div>
      </div>
      <div className="yd-settings-sections">
        <Section id="devices-addresses" title={t('devices.addresses')}>
          <div className="yd-device-addresses">
            <div className="yd-device-fields">
              <Copyable label={t('devices.opds')} value={opds} />
              <Copyable label={t('devices.opdsV2')} value={opdsV2} />
              <Copyable label={t('devices.kosync')} value={kosync} />
              {username && <Copyable label={t('devices.username')} value={username} />}
              {isLoopback(window.location.hostname) && (
                <Alert type="warning" showIcon message={t('devices.loopback', { host: window.location.host })} />
              )}
            </div>
            <figure className="yd-device-qr">
              <QRCode value={opds} type="svg" size={148} bordered={false} />
              <figcaption className="yd-muted">{t('devices.qrHint')}</figcaption>
            </figure>
          </div>
        </Section>
        <Section id="devices-passwords" title={t('devices.passwords')} hint={t('devices.passwordsHint')}>
          <DevicePasswords username={username} />
        </Section>
        <Section id="devices-steps" title={t('devices.steps')}>
          <Tabs
            items={[
              { key: 'koreader', label: 'KOReader', children: <Steps steps={stepsOf('koreader', 5)} /> },
              { key: 'moon', label: 'Moon+ Reader', children: <Steps steps={stepsOf('moon', 3)} /> },
              { key: 'kybook', label: 'KyBook / Readest', children: <Steps steps={stepsOf('kybook', 4)} /> },
            ]}
          />
        </Section>
      </div>
    </div>
  );
}
