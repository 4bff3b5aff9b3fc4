import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert, Button, Form, Input } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { authApi } from '../../api/auth.ts';
import { errorMessage } from '../../api/errors.ts';
import { useAuth } from '../../stores/auth.ts';
import { useSessionStatus } from '../../shell/session.ts';
import { safeRedirect } from '../../shell/guards.tsx';
import { usePageTitle } from '../../shell/usePageTitle.ts';
import { AuthHeader } from './AuthHeader.tsx';

interface LoginValues {
  account: string;
  password: string;
}

/** /login (SPEC §2.4): account + password; on success the token and user are kept and we go on. */
export default function LoginPage() {
  const { t } = useTranslation();
  usePageTitle(t('login.pageTitle'));
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // Sent here by a 401: the session ended (expired, or logged out elsewhere); say so, or the user is left guessing.
  const sessionEnded = useAuth((s) => s.sessionEnded);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onFinish = async (values: LoginValues) => {
    setSubmitting(true);
    setError(null);
    try {
      const result = await authApi.login({ account: values.account.trim(), password: values.password });
      useAuth.getState().setSession(result.token, result.user);
      useSessionStatus.setState({ status: 'ready' });
      void navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch (failure) {
      setError(errorMessage(failure, { context: 'login' }));
      setSubmitting(false);
    }
  };

  return (
    <>
      <AuthHeader title={t('login.title')} subtitle={t('login.subtitle')} />
      <Form<LoginValues> layout="vertical" requiredMark={false} onFinish={onFinish} size="large" name="login">
        {error ? (
          <Alert type="error" showIcon title={error} className="yd-form-alert" role="alert" />
        ) : (
          sessionEnded && (
            <Alert type="info" showIcon title={t('login.sessionEnded')} className="yd-form-alert" role="status" />
          )
        )}
        <Form.Item
          name="account"
          label={t('login.account')}
          rules={[{ required: true, whitespace: true, message: t('login.accountRequired') }]}
        >
          <Input prefix={<UserOutlined />} placeholder={t('login.accountPlaceholder')} autoComplete="username" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('login.password')}
          rules={[{ required: true, message: t('login.passwordRequired') }]}
        >
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('login.passwordPlaceholder')}
            autoComplete="current-password"
          />
        </Form.Item>
        <div className="yd-form-aside">
          <Link to="/forget-password">{t('login.forgot')}</Link>
        </div>
        <Button type="primary" htmlType="submit" block loading={submitting}>
          {t('login.submit')}
        </Button>
      </Form>
      <div className="yd-auth-footer">
        {t('login.noAccount')} <Link to="/register">{t('login.register')}</Link>
      </div>
    </>
  );
}
