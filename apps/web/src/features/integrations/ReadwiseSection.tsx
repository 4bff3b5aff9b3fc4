import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Input, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { ReadwiseStatus } from '@yidu/shared/integrations';
import { integrationsApi } from '../../api/offline.ts';
import { errorMessage } from '../../api/errors.ts';
import i18n from '../../i18n/index.ts';

const KEY = ['readwise'];

/**
 * The personal center's Readwise connection: the reader's access token (checked with Readwise, kept
 * sealed on the server, shown by its last characters), whether highlights and notes go as they are
 * made, sending everything now, and what the last push did.
 */
export function ReadwiseSection() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [token, setToken] = useState('');
  const status = useQuery({ queryKey: KEY, queryFn: integrationsApi.readwise });
  const done = (next: ReadwiseStatus) => client.setQueryData(KEY, next);
  const save = useMutation({
    mutationFn: (body: { token?: string; autoPush?: boolean }) => integrationsApi.saveReadwise(body),
    onSuccess: (next) => {
      done(next);
      setToken('');
      void message.success(t('integrations.readwise.saved'));
    },
    onError: (error) => void message.error(errorMessage(error)),
  });
  const push = useMutation({
    mutationFn: integrationsApi.pushReadwise,
    onSuccess: (next) => {
      done(next);
      void message.success(t('integrations.readwise.pushing', { count: next.pending }));
      setTimeout(() => void client.invalidateQueries({ queryKey: KEY }), 3000);
    },
    onError: (error) => void message.error(errorMessage(error)),
  });
  const disconnect = useMutation({
    mutationFn: integrationsApi.disconnectReadwise,
    onSuccess: () => void client.invalidateQueries({ queryKey: KEY }),
    onError: (error) => void message.error(errorMessage(error)),
  });
  const s = status.data;
  const lastError = s?.lastError
    ? i18n.exists(`errors.${s.lastError}`)
      ? t(`errors.${s.lastError}`)
      : s.lastError
    : null;

  return (
    <div className="yd-readwise">
      <Typography.Paragraph type="secondary">
        {t('integrations.readwise.intro')}{' '}
        <a href="https://readwise.io/access_token" target="_blank" rel="noreferrer noopener">
          readwise.io/access_token
        </a>
      </Typography.Paragraph>
      {s?.connected && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Text>
            {t('integrations.readwise.connected', { hint: s.tokenHint ?? '' })}
            {s.lastPushAt
              ? ` · ${t('integrations.readwise.lastPush', { time: dayjs(s.lastPushAt).format('YYYY-MM-DD HH:mm') })}`
              : ''}
          </Typography.Text>
          <Typography.Text type="secondary">{t('integrations.readwise.pending', { count: s.pending })}</Typography.Text>
          {lastError && <Alert type="warning" showIcon message={lastError} />}
          <label className="yd-readwise-auto">
            <Switch checked={s.autoPush} loading={save.isPending} onChange={(autoPush) => save.mutate({ autoPush })} />{' '}
            {t('integrations.readwise.autoPush')}
          </label>
          <Space wrap>
            <Button type="primary" loading={push.isPending} onClick={() => push.mutate()}>
              {t('integrations.readwise.pushNow')}
            </Button>
            <Button danger loading={disconnect.isPending} onClick={() => disconnect.mutate()}>
              {t('integrations.readwise.disconnect')}
            </Button>
          </Space>
        </Space>
      )}
      <Space.Compact style={{ width: '100%', maxWidth: 520, marginTop: 12 }}>
        <Input.Password
          value={token}
          onChange={(e) => setToken(e.target.value)}
          placeholder={s?.connected ? t('integrations.readwise.replaceToken') : t('integrations.readwise.token')}
          aria-label={t('integrations.readwise.token')}
          autoComplete="off"
        />
        <Button
          loading={save.isPending}
          disabled={token.trim().length < 10}
          onClick={() => save.mutate({ token: token.trim() })}
        >
          {t('integrations.readwise.connect')}
        </Button>
      </Space.Compact>
    </div>
  );
}
