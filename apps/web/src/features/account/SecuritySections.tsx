import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, App, Button, Empty, Form, Input, Modal, Popconfirm, Skeleton, Tag, Typography } from 'antd';
import { DesktopOutlined, ExclamationCircleOutlined, SafetyOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '@yidu/shared/auth';
import { settingsApi, type UserSession } from '../../api/settings.ts';
import { userApi } from '../../api/user.ts';
import { errorMessage } from '../../api/errors.ts';
import { useUiLanguage } from '../../i18n/index.ts';
import { useAuth } from '../../stores/auth.ts';
import { useTabs } from '../../stores/tabs.ts';
import { authRules } from '../auth/rules.ts';
import { useFormatDateTime } from './format.ts';
import { useSettingsAction } from './useSaveUser.ts';

/** Email change: the current password, then a link to the new address; the pending address is shown. */
export function EmailSection({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const run = useSettingsAction();
  const uiLanguage = useUiLanguage((s) => s.language);
  const [form] = Form.useForm<{ email: string; password: string }>();
  const [saving, setSaving] = useState(false);
  const [pending, setPending] = useState<string | null>(user.pendingEmail);
  const rules = authRules(t);

  return (
    <div className="yd-settings-block">
      <dl className="yd-settings-facts">
        <dt>{t('settings.currentEmail')}</dt>
        <dd>{user.email ?? t('settings.noEmail')}</dd>
      </dl>
      {pending && (
        <Alert
          type="info"
          showIcon
          className="yd-settings-alert"
          title={t('settings.pendingEmail', { email: pending })}
          description={t('settings.pendingEmailHint')}
        />
      )}
      <Form
        form={form}
        name="settings-email"
        layout="vertical"
        className="yd-settings-form"
        onFinish={async (values) => {
          setSaving(true);
          const email = values.email.trim();
          const sent = await run(
            () => settingsApi.changeEmail({ email, password: values.password, uiLanguage }),
            t('settings.emailSent', { email }),
            t('settings.emailFailed'),
          );
          if (sent) {
            setPending(email);
            form.resetFields();
          }
          setSaving(false);
        }}
      >
        <Form.Item name="email" label={t('settings.newEmail')} rules={rules.email}>
          <Input type="email" autoComplete="email" placeholder={t('register.emailPlaceholder')} />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('settings.currentPassword')}
          rules={[{ required: true, message: t('validation.passwordRequired') }]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('settings.sendLink')}
        </Button>
      </Form>
    </div>
  );
}

/** Password change: current + new + confirm (SPEC §5.1, §5.2); other sessions are signed out. */
export function PasswordSection() {
  const { t } = useTranslation();
  const run = useSettingsAction();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ oldPassword: string; password: string; confirm: string }>();
  const [saving, setSaving] = useState(false);
  const rules = authRules(t);
  return (
    <Form
      form={form}
      name="settings-password"
      layout="vertical"
      className="yd-settings-form"
      onFinish={async (values) => {
        setSaving(true);
        const done = await run(
          () => userApi.changePassword({ oldPassword: values.oldPassword, password: values.password }),
          t('settings.passwordSaved'),
          t('settings.passwordFailed'),
        );
        if (done !== undefined) {
          form.resetFields();
          void queryClient.invalidateQueries({ queryKey: ['sessions'] });
        }
        setSaving(false);
      }}
    >
      <Form.Item
        name="oldPassword"
        label={t('settings.currentPassword')}
        rules={[{ required: true, message: t('validation.passwordRequired') }]}
      >
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('settings.newPassword')}
        rules={rules.password}
        extra={t('register.passwordHint')}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={t('settings.confirmPassword')}
        dependencies={['password']}
        rules={rules.confirm()}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving}>
        {t('settings.changePassword')}
      </Button>
    </Form>
  );
}

/** A short device description from a user agent ("Chrome · Windows"). */
export function describeAgent(agent: string | null): string | null {
  if (!agent) return null;
  const browser = /Edg\//.test(agent)
    ? 'Edge'
    : /Firefox\//.test(agent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(agent)
        ? 'Chrome'
        : /Safari\//.test(agent)
          ? 'Safari'
          : null;
  const system = /Android/.test(agent)
    ? 'Android'
    : /iPhone|iPad/.test(agent)
      ? 'iOS'
      : /Windows/.test(agent)
        ? 'Windows'
        : /Mac OS X/.test(agent)
          ? 'macOS'
          : /Linux/.test(agent)
            ? 'Linux'
            : null;
  const parts = [browser, system].filter(Boolean);
  return parts.length ? parts.join(' · ') : agent.slice(0, 60);
}

/** Signed-in sessions, admin support sessions shown clearly, each can be signed out. */
export function SessionsSection() {
  const { t } = useTranslation();
  const run = useSettingsAction();
  const formatDateTime = useFormatDateTime();
  const sessions = useQuery({ queryKey: ['sessions'], queryFn: settingsApi.sessions });
  const [busy, setBusy] = useState<number | null>(null);

  const signOut = async (session: UserSession) => {
    setBusy(session.id);
    const done = await run(
      () => settingsApi.revokeSession(session.id),
      t('settings.sessionSignedOut'),
      t('settings.sessionFailed'),
    );
    if (done !== undefined) await sessions.refetch();
    setBusy(null);
  };

  if (sessions.isPending) return <Skeleton active paragraph={{ rows: 3 }} title={false} />;
  if (sessions.isError) return <Typography.Text type="danger">{errorMessage(sessions.error)}</Typography.Text>;
  if (sessions.data.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  return (
    <ul className="yd-session-list">
      {sessions.data.map((s) => (
        <li key={s.id} className={s.kind === 'impersonation' ? 'is-support' : undefined} data-kind={s.kind}>
          <span className="yd-session-icon">
            {s.kind === 'impersonation' ? <SafetyOutlined /> : <DesktopOutlined />}
          </span>
          <div className="yd-session-main">
            <div className="yd-session-title">
              <strong>
                {s.kind === 'impersonation'
                  ? t('settings.supportSession')
                  : (describeAgent(s.userAgent) ?? t('settings.unknownDevice'))}
              </strong>
              {s.current && <Tag color="green">{t('settings.thisDevice')}</Tag>}
              {s.kind === 'impersonation' && <Tag color="gold">{t('settings.byAdmin')}</Tag>}
            </div>
            {s.kind === 'impersonation' && <span className="yd-session-note">{t('settings.supportSessionHint')}</span>}
            <span className="yd-muted">
              {[
                s.ip,
                t('settings.lastSeen', { time: formatDateTime(s.lastSeenAt) }),
                t('settings.expires', { time: formatDateTime(s.expiresAt) }),
              ]
                .filter(Boolean)
                .join(' · ')}
            </span>
          </div>
          {!s.current && (
            <Popconfirm
              title={t('settings.signOutConfirm')}
              okText={t('settings.signOut')}
              cancelText={t('common.cancel')}
              onConfirm={() => signOut(s)}
            >
              <Button size="small" danger={s.kind === 'impersonation'} loading={busy === s.id}>
                {t('settings.signOut')}
              </Button>
            </Popconfirm>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Account deletion: password plus typing the account name; then a local logout. */
export function DeleteAccountSection({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [form] = Form.useForm<{ password: string; confirmName: string }>();

  const remove = async (values: { password: string }) => {
    setDeleting(true);
    setError(null);
    try {
      await settingsApi.deleteAccount(values.password);
      setOpen(false);
      useTabs.getState().clear();
      useAuth.getState().clear();
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'config' });
      void message.success(t('settings.deleted'));
      void navigate('/login', { replace: true });
    } catch (e) {
      setError(`${t('settings.deleteFailed')}: ${errorMessage(e)}`);
    } finally {
      setDeleting(false);
    }
  };

  return (
    <div className="yd-settings-danger">
      <p>{t('settings.deleteText')}</p>
      <Button danger icon={<ExclamationCircleOutlined />} onClick={() => setOpen(true)}>
        {t('settings.deleteAccount')}
      </Button>
      <Modal
        open={open}
        title={t('settings.deleteTitle')}
        onCancel={() => setOpen(false)}
        okText={t('settings.deleteForever')}
        cancelText={t('common.cancel')}
        okButtonProps={{ danger: true, loading: deleting, htmlType: 'submit', form: 'settings-delete' }}
        destroyOnHidden
      >
        <Alert type="error" showIcon title={t('settings.deleteWarning')} className="yd-settings-alert" />
        {error && <Alert type="error" title={error} className="yd-settings-alert" role="alert" />}
        <Form form={form} name="settings-delete" layout="vertical" onFinish={(v) => void remove(v)}>
          <Form.Item
            name="confirmName"
            label={t('settings.deleteTypeName', { account: user.account })}
            rules={[
              {
                validator: async (_r, value: string | undefined) => {
                  if ((value ?? '').trim() !== user.account) throw new Error(t('settings.deleteNameMismatch'));
                },
              },
            ]}
          >
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('settings.currentPassword')}
            rules={[{ required: true, message: t('validation.passwordRequired') }]}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
