import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Button, Form, Input, Result, Space, Steps } from 'antd';
import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { authApi } from '../../api/auth.ts';
import { ApiError } from '../../api/client.ts';
import { usePublicConfig } from '../../api/config.ts';
import { errorMessage } from '../../api/errors.ts';
import { useUiLanguage } from '../../i18n/index.ts';
import { usePageTitle } from '../../shell/usePageTitle.ts';
import { AuthHeader } from './AuthHeader.tsx';
import { authRules } from './rules.ts';
import { useCountdown } from './useCountdown.ts';

interface ResetValues {
  code: string;
  password: string;
  confirm: string;
}

/** /forget-password (SPEC §2.4): account → code by email or SMS → new password. */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  usePageTitle(t('forgot.pageTitle'));
  const uiLanguage = useUiLanguage((s) => s.language);
  const config = usePublicConfig();
  const rules = authRules(t);
  const countdown = useCountdown();
  const [step, setStep] = useState<0 | 1 | 2>(0);
  const [account, setAccount] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [resetting, setResetting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [resetForm] = Form.useForm<ResetValues>();

  const requestCode = async (forAccount: string) => {
    setSending(true);
    setError(null);
    try {
      const sent = await authApi.forgotPasswordCode(forAccount, uiLanguage);
      setAccount(forAccount);
      setSentTo(sent.sentTo);
      countdown.start(sent.retryAfter || config.data?.codeResendSeconds || 60);
      setStep(1);
    } catch (failure) {
      if (failure instanceof ApiError && failure.key === 'verificationCodeCooldown') {
        // A code was sent moments ago: it is still valid, so go on to entering it.
        setAccount(forAccount);
        countdown.start(failure.retryAfter ?? config.data?.codeResendSeconds ?? 60);
        setStep(1);
      }
      setError(errorMessage(failure));
    } finally {
      setSending(false);
    }
  };

  const reset = async (values: ResetValues) => {
    setResetting(true);
    setError(null);
    try {
      await authApi.resetPassword({ account, code: values.code.trim(), password: values.password });
      setStep(2);
    } catch (failure) {
      const message = errorMessage(failure);
      setError(message);
      if (failure instanceof ApiError && failure.key === 'invalidVerificationCode') {
        resetForm.setFields([{ name: 'code', errors: [message] }]);
      }
      if (failure instanceof ApiError && failure.key === 'weakPassword') {
        resetForm.setFields([{ name: 'password', errors: [message] }]);
      }
    } finally {
      setResetting(false);
    }
  };

  const steps = (
    <Steps
      size="small"
      current={step}
      className="yd-steps"
      items={[{ title: t('forgot.stepAccount') }, { title: t('forgot.stepReset') }, { title: t('forgot.stepDone') }]}
    />
  );

  if (step === 2) {
    return (
      <>
        {steps}
        <Result
          status="success"
          title={t('forgot.successTitle')}
          subTitle={t('forgot.successText')}
          extra={
            <Link to="/login">
              <Button type="primary">{t('forgot.backToLogin')}</Button>
            </Link>
          }
        />
      </>
    );
  }

  return (
    <>
      <AuthHeader title={t('forgot.title')} subtitle={t('forgot.subtitle')} />
      {steps}
      {error && <Alert type="error" showIcon role="alert" title={error} className="yd-form-alert" />}
      {step === 0 ? (
        <Form<{ account: string }>
          layout="vertical"
          requiredMark={false}
          size="large"
          name="forgot-account"
          initialValues={{ account }}
          onFinish={(values) => void requestCode(values.account.trim())}
        >
          <Form.Item
            name="account"
            label={t('forgot.account')}
            rules={[{ required: true, whitespace: true, message: t('login.accountRequired') }]}
          >
            <Input prefix={<UserOutlined />} placeholder={t('forgot.accountPlaceholder')} autoComplete="username" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={sending}>
            {t('forgot.sendCode')}
          </Button>
        </Form>
      ) : (
        <Form<ResetValues> form={resetForm} layout="vertical" requiredMark={false} name="forgot-reset" onFinish={reset}>
          {sentTo && (
            <Alert type="info" showIcon title={t('forgot.codeSent', { to: sentTo })} className="yd-form-alert" />
          )}
          <Form.Item
            label={t('forgot.code')}
            required
            extra={countdown.active ? t('register.retryAfter', { n: countdown.remaining }) : undefined}
          >
            <Space.Compact block>
              <Form.Item name="code" noStyle rules={rules.code}>
                <Input
                  prefix={<SafetyOutlined />}
                  autoComplete="one-time-code"
                  inputMode="numeric"
                  aria-label={t('forgot.code')}
                />
              </Form.Item>
              <Button
                onClick={() => void requestCode(account)}
                disabled={countdown.active}
                loading={sending}
                className="yd-code-button"
              >
                {countdown.active ? t('register.countdown', { n: countdown.remaining }) : t('forgot.resend')}
              </Button>
            </Space.Compact>
          </Form.Item>
          <Form.Item
            name="password"
            label={t('forgot.newPassword')}
            rules={rules.password}
            extra={t('register.passwordHint')}
          >
            <Input.Password prefix={<LockOutlined />} autoComplete="new-password" />
          </Form.Item>
          <Form.Item name="confirm" label={t('forgot.confirm')} rules={rules.confirm()} dependencies={['password']}>
            <Input.Password prefix={<LockOutlined />} autoComplete="new-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block size="large" loading={resetting}>
            {t('forgot.submit')}
          </Button>
          <Button
            type="link"
            block
            onClick={() => {
              setStep(0);
              setError(null);
            }}
          >
            {t('forgot.changeAccount')}
          </Button>
        </Form>
      )}
      <div className="yd-auth-footer">
        <Link to="/login">{t('forgot.backToLogin')}</Link>
      </div>
    </>
  );
}
