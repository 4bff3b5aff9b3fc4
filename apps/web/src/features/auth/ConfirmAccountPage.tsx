import { Link, useSearchParams } from 'react-router';
import { Button, Result, Space, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ConfirmResult } from '@yidu/shared/auth';
import { authApi } from '../../api/auth.ts';
import { ApiError } from '../../api/client.ts';
import { usePublicConfig } from '../../api/config.ts';
import { errorMessage } from '../../api/errors.ts';
import { usePageTitle } from '../../shell/usePageTitle.ts';

/** /user/confirm?code=...: activates the account once, from the emailed link (SPEC §4.3). */
export default function ConfirmAccountPage() {
  const { t } = useTranslation();
  usePageTitle(t('confirm.pageTitle'));
  const [params] = useSearchParams();
  const code = params.get('code')?.trim() ?? '';
  const config = usePublicConfig();
  // A query keyed by the code runs the call once, even when React renders twice.
  const confirm = useQuery({
    queryKey: ['confirmAccount', code],
    queryFn: () => authApi.confirmAccount(code),
    enabled: code !== '',
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });

  const loginButton = (
    <Link to="/login" key="login">
      <Button type="primary">{t('confirm.login')}</Button>
    </Link>
  );

  if (!code || (confirm.error instanceof ApiError && confirm.error.key === 'invalidLink')) {
    return (
      <Result
        status="error"
        title={t('confirm.invalidTitle')}
        subTitle={t('confirm.invalidText')}
        extra={loginButton}
      />
    );
  }
  if (confirm.isPending) {
    return (
      <div className="yd-confirm-pending" role="status">
        <Spin size="large" />
        <p>{t('confirm.pending')}</p>
      </div>
    );
  }
  if (confirm.error) {
    if (confirm.error instanceof ApiError && confirm.error.key === 'linkExpired') {
      const contact = config.data?.contactEmail;
      return (
        <Result
          status="warning"
          title={t('confirm.expiredTitle')}
          subTitle={contact ? t('confirm.expiredContact', { email: contact }) : t('confirm.expiredText')}
          extra={
            <Space wrap>
              <Link to="/register">
                <Button type="primary">{t('confirm.register')}</Button>
              </Link>
              <Link to="/login">
                <Button>{t('confirm.login')}</Button>
              </Link>
            </Space>
          }
        />
      );
    }
    return (
      <Result
        status="error"
        title={t('confirm.failedTitle')}
        subTitle={errorMessage(confirm.error)}
        extra={
          <Space wrap>
            <Button type="primary" onClick={() => void confirm.refetch()}>
              {t('confirm.retry')}
            </Button>
            {loginButton}
          </Space>
        }
      />
    );
  }
  // The same link confirms an activation or a change of email address (kind emailChange).
  const result = confirm.data as ConfirmResult;
  if (result.kind === 'emailChange') {
    return (
      <Result
        status="success"
        title={t('confirm.emailChangedTitle')}
        subTitle={t('confirm.emailChangedText', { email: result.email ?? '' })}
        extra={
          <Link to="/user-settings">
            <Button type="primary">{t('confirm.toSettings')}</Button>
          </Link>
        }
      />
    );
  }
  return (
    <Result
      status="success"
      title={t('confirm.successTitle')}
      subTitle={t('confirm.successText', { account: result.account })}
      extra={loginButton}
    />
  );
}
