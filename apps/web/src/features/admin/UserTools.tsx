import { useState } from 'react';
import {
  Alert,
  App,
  Button,
  Descriptions,
  Drawer,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi, type AdminUser } from '../../api/admin.ts';
import { errorMessage } from '../../api/errors.ts';
import { useFormatDateTime } from '../account/format.ts';
import { copyText } from '../sharing/copy.ts';

/** A fresh id so that a repeated grant is applied once. */
const requestId = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;

/** Find users by name and act on one: support token, add book, disable/enable, admin role, grant points. */
export function UserTools() {
  const { t } = useTranslation();
  const formatDateTime = useFormatDateTime();
  const [name, setName] = useState('');
  const [search, setSearch] = useState<string | null>(null);
  const [selected, setSelected] = useState<AdminUser | null>(null);
  const users = useQuery({
    queryKey: ['admin', 'users', search],
    queryFn: () => adminApi.findUsers(search!),
    enabled: search !== null,
  });

  return (
    <section className="yd-panel" aria-label={t('admin.users.title')}>
      <Typography.Title level={5} className="yd-section-title">
        {t('admin.users.title')}
      </Typography.Title>
      <form
        className="yd-filter-bar"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) setSearch(name.trim());
        }}
      >
        <Space.Compact className="yd-admin-search">
          <Input
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder={t('admin.usernamePlaceholder')}
            aria-label={t('admin.byUsername')}
          />
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />} loading={users.isFetching}>
            {t('admin.find')}
          </Button>
        </Space.Compact>
      </form>
      {search === null ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('admin.users.prompt')} />
      ) : users.isError ? (
        <Typography.Text type="danger">{errorMessage(users.error)}</Typography.Text>
      ) : (
        <Table<AdminUser>
          size="small"
          rowKey="id"
          loading={users.isPending}
          dataSource={users.data ?? []}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          scroll={{ x: 760 }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('admin.noUser')} /> }}
          columns={[
            {
              key: 'user',
              title: t('admin.user'),
              render: (_, u) => (
                <span className="yd-admin-cell-stack">
                  <strong>{u.username}</strong>
                  <span className="yd-muted">{u.account}</span>
                </span>
              ),
            },
            {
              key: 'state',
              title: t('admin.users.state'),
              render: (_, u) => (
                <>
                  {u.role === 'admin' && <Tag color="gold">{t('user.admin')}</Tag>}
                  <Tag color={u.status === 'active' ? 'green' : u.status === 'disabled' ? 'red' : 'default'}>
                    {t(`admin.users.status.${u.status}`, { defaultValue: u.status })}
                  </Tag>
                </>
              ),
            },
            { key: 'points', title: t('nav.points'), dataIndex: 'points', align: 'right' },
            { key: 'logins', title: t('admin.loginCount'), dataIndex: 'loginCount', align: 'right' },
            { key: 'last', title: t('admin.lastLogin'), render: (_, u) => formatDateTime(u.lastLoginAt) },
            {
              key: 'actions',
              title: t('admin.actions'),
              render: (_, u) => (
                <Button size="small" onClick={() => setSelected(u)}>
                  {t('admin.users.manage')}
                </Button>
              ),
            },
          ]}
        />
      )}
      <Drawer
        open={selected !== null}
        onClose={() => setSelected(null)}
        title={selected ? `${selected.username} (${selected.account})` : ''}
        size={520}
        destroyOnHidden
      >
        {selected && <UserActions user={selected} onChanged={setSelected} />}
      </Drawer>
    </section>
  );
}

function UserActions({ user, onChanged }: { user: AdminUser; onChanged: (u: AdminUser) => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const formatDateTime = useFormatDateTime();
  const [busy, setBusy] = useState<string | null>(null);
  const [token, setToken] = useState<{ token: string; expiresInSeconds: number } | null>(null);

  const run = async <T,>(name: string, action: () => Promise<T>, success: string, failure: string) => {
    setBusy(name);
    try {
      const result = await action();
      void message.success(success);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'users'] });
      return result;
    } catch (error) {
      void message.error(`${failure}: ${errorMessage(error)}`);
      return undefined;
    } finally {
      setBusy(null);
    }
  };

  const setUser = async (body: { status?: 'active' | 'disabled'; role?: 'user' | 'admin' }) => {
    const next = await run(
      'user',
      () => adminApi.setUser(user.id, body),
      t('admin.users.saved'),
      t('admin.users.failed'),
    );
    if (next) onChanged(next);
  };

  const askToken = () =>
    modal.confirm({
      title: t('admin.users.tokenTitle'),
      content: t('admin.users.tokenWarning'),
      okText: t('admin.users.tokenOk'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        const result = await run(
          'token',
          () => adminApi.userToken(user.account),
          t('admin.users.tokenIssued'),
          t('admin.users.tokenFailed'),
        );
        if (result) setToken(result);
      },
    });

  return (
    <div className="yd-admin-stack">
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'id', label: 'ID', children: user.id },
          { key: 'email', label: t('settings.currentEmail'), children: user.email ?? '–' },
          { key: 'phone', label: t('register.phone'), children: user.phone ?? '–' },
          { key: 'points', label: t('nav.points'), children: user.points },
          { key: 'created', label: t('admin.registered'), children: formatDateTime(user.createdAt) },
          { key: 'last', label: t('admin.lastLogin'), children: formatDateTime(user.lastLoginAt) },
        ]}
      />

      <div className="yd-admin-action">
        <h4>{t('admin.users.access')}</h4>
        <Space wrap>
          {user.status === 'disabled' ? (
            <Button loading={busy === 'user'} onClick={() => void setUser({ status: 'active' })}>
              {t('admin.users.enable')}
            </Button>
          ) : (
            <Button danger loading={busy === 'user'} onClick={() => void setUser({ status: 'disabled' })}>
              {t('admin.users.disable')}
            </Button>
          )}
          {user.role === 'admin' ? (
            <Button loading={busy === 'user'} onClick={() => void setUser({ role: 'user' })}>
              {t('admin.users.removeAdmin')}
            </Button>
          ) : (
            <Button loading={busy === 'user'} onClick={() => void setUser({ role: 'admin' })}>
              {t('admin.users.makeAdmin')}
            </Button>
          )}
        </Space>
      </div>

      <Form
        className="yd-admin-action"
        layout="vertical"
        name="grant-points"
        onFinish={async (v: { points: number; reason?: string }) => {
          const result = await run(
            'grant',
            () =>
              adminApi.grantPoints({
                userId: user.id,
                points: v.points,
                reason: v.reason?.trim() || undefined,
                requestId: requestId(),
              }),
            t('admin.users.granted'),
            t('admin.users.grantFailed'),
          );
          if (result) onChanged({ ...user, points: result.balance });
        }}
      >
        <h4>{t('admin.users.grant')}</h4>
        <Space wrap align="start">
          <Form.Item name="points" rules={[{ required: true, message: t('admin.users.pointsRequired') }]} noStyle>
            <InputNumber
              min={1}
              max={10_000_000}
              placeholder={t('admin.users.points')}
              aria-label={t('admin.users.points')}
            />
          </Form.Item>
          <Form.Item name="reason" noStyle>
            <Input maxLength={200} placeholder={t('admin.users.reason')} aria-label={t('admin.users.reason')} />
          </Form.Item>
          <Button htmlType="submit" loading={busy === 'grant'}>
            {t('admin.users.grantButton')}
          </Button>
        </Space>
      </Form>

      <Form
        className="yd-admin-action"
        layout="vertical"
        name="add-book"
        onFinish={(v: { bookCode: string }) =>
          void run(
            'book',
            () => adminApi.addBook(v.bookCode.trim(), user.id),
            t('admin.users.bookAdded'),
            t('admin.users.bookFailed'),
          )
        }
      >
        <h4>{t('admin.users.addBook')}</h4>
        <Space.Compact>
          <Form.Item
            name="bookCode"
            rules={[{ required: true, whitespace: true, message: t('admin.users.bookCodeRequired') }]}
            noStyle
          >
            <Input placeholder={t('share.bookCode')} aria-label={t('share.bookCode')} />
          </Form.Item>
          <Button htmlType="submit" loading={busy === 'book'}>
            {t('admin.users.addBookButton')}
          </Button>
        </Space.Compact>
      </Form>

      <div className="yd-admin-action">
        <h4>{t('admin.users.support')}</h4>
        <Alert type="warning" showIcon title={t('admin.users.tokenWarning')} className="yd-settings-alert" />
        <Button danger loading={busy === 'token'} onClick={askToken}>
          {t('admin.users.tokenButton')}
        </Button>
      </div>
      <Modal
        open={token !== null}
        title={t('admin.users.tokenTitle')}
        onCancel={() => setToken(null)}
        footer={<Button onClick={() => setToken(null)}>{t('common.ok')}</Button>}
      >
        <Alert
          type="warning"
          showIcon
          title={t('admin.users.tokenExpires', { minutes: Math.round((token?.expiresInSeconds ?? 0) / 60) })}
          className="yd-settings-alert"
        />
        <Input.TextArea
          readOnly
          value={token?.token}
          autoSize
          onFocus={(e) => e.currentTarget.select()}
          aria-label={t('admin.users.token')}
        />
        <Button
          className="yd-admin-spaced"
          onClick={async () => {
            if (token && (await copyText(token.token))) void message.success(t('share.copied'));
            else void message.warning(t('share.copyManually'));
          }}
        >
          {t('share.copy')}
        </Button>
      </Modal>
    </div>
  );
}
