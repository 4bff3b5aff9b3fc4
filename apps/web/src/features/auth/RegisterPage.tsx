import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Alert, App, Button, Checkbox, Form, Input, Result, Space, Tabs } from 'antd';
import { LockOutlined, MailOutlined, MobileOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { RegisterBody } from '@yidu/shared/auth';
import { authApi } from '../../api/auth.ts';
import { ApiError } from '../../api/client.ts';
import { usePublicConfig } from '../../api/config.ts';
import { errorMessage } from '../../api/errors.ts';
import { useUiLanguage } from '../../i18n/index.ts';
import { uiLanguageInfo } from '../../i18n/languages.ts';
import { useAuth } from '../../stores/auth.ts';
import { useSessionStatus } from '../../shell/session.ts';
import { usePageTitle } from '../../shell/usePageTitle.ts';
import { AuthHeader } from './AuthHeader.tsx';
import { AgreementModal } from './AgreementModal.tsx';
import { ReadingLanguageSelect } from './LanguageSelect.tsx';
import { authRules, normalizePhone, optional } from './rules.ts';
import { useCountdown } from './useCountdown.ts';

type Method = RegisterBody['method'];

interface RegisterValues {
  email?: string;
  phone?: string;
  code?: string;
  account?: string;
  password: string;
  confirm: string;
  nickname?: string;
  inviteCode?: string;
  language: string;
  agreement: boolean;
}

/** Which field a server error belongs to, to show it there as well. */
const FIELD_OF_ERROR: Record<string, keyof RegisterValues> = {
  accountExists: 'account',
  emailInUse: 'email',
  invalidEmail: 'email',
  phoneInUse: 'phone',
  invalidPhone: 'phone',
  invalidInviteCode: 'inviteCode',
  invalidVerificationCode: 'code',
  weakPassword: 'password',
  noSuchLanguage: 'language',
};

/** Seconds to wait before another code when the server does not say (it always should). */
const DEFAULT_RESEND_SECONDS = 60;

/** Automatic login after a registration without activation, after this long (ms). */
export const AUTO_LOGIN_DELAY_MS = 1500;

export interface RegisterFormProps {
  method: Method;
  requireInvite: boolean;
  resendSeconds: number;
  onActivationSent: (email: string) => void;
}

export function RegisterForm({ method, requireInvite, resendSeconds, onActivationSent }: RegisterFormProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<RegisterValues>();
  const uiLanguage = useUiLanguage((s) => s.language);
  const rules = authRules(t);
  const countdown = useCountdown();
  const [sending, setSending] = useState(false);
  const [codeSentTo, setCodeSentTo] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [agreementOpen, setAgreementOpen] = useState(false);

  const sendCode = async () => {
    let phone: string;
    try {
      phone = normalizePhone((await form.validateFields(['phone'])).phone ?? '');
    } catch {
      return;
    }
    setSending(true);
    try {
      const sent = await authApi.getVerificationCode(phone, 0);
      countdown.start(sent.retryAfter || resendSeconds);
      setCodeSentTo(sent.sentTo);
      void message.success(t('register.codeSent', { to: sent.sentTo }));
    } catch (error) {
      if (error instanceof ApiError && error.key === 'verificationCodeCooldown') {
        countdown.start(error.retryAfter ?? resendSeconds);
      }
      const field = error instanceof ApiError ? FIELD_OF_ERROR[error.key] : undefined;
      if (field === 'phone') form.setFields([{ name: 'phone', errors: [errorMessage(error)] }]);
      else void message.error(errorMessage(error));
    } finally {
      setSending(false);
    }
  };

  const onFinish = async (values: RegisterValues) => {
    setSubmitting(true);
    setFailure(null);
    const body: RegisterBody = {
      method,
      email: method === 'email' ? optional(values.email) : undefined,
      phone: method === 'phone' ? normalizePhone(values.phone ?? '') : undefined,
      code: method === 'phone' ? optional(values.code) : undefined,
      account: optional(values.account),
      password: values.password,
      nickname: optional(values.nickname),
      inviteCode: optional(values.inviteCode),
      language: values.language,
      uiLanguage,
    };
    try {
      const result = await authApi.register(body);
      if (result.activationRequired) {
        onActivationSent(body.email ?? result.account);
        return;
      }
      void message.success(t('register.success'));
      if (result.token) {
        useAuth.getState().setSession(result.token, result.user ?? null);
        if (result.user) useSessionStatus.setState({ status: 'ready' });
      }
      setTimeout(() => void navigate(result.token ? '/books/all' : '/login', { replace: true }), AUTO_LOGIN_DELAY_MS);
    } catch (error) {
      const reason = errorMessage(error);
      setFailure(reason);
      const field = error instanceof ApiError ? FIELD_OF_ERROR[error.key] : undefined;
      if (field) form.setFields([{ name: field, errors: [reason] }]);
      setSubmitting(false);
    }
  };

  const codeButtonLabel = countdown.active
    ? t('register.countdown', { n: countdown.remaining })
    : codeSentTo
      ? t('register.resend')
      : t('register.sendCode');

  return (
    <Form<RegisterValues>
      form={form}
      name={`register-${method}`}
      layout="vertical"
      requiredMark={false}
      onFinish={onFinish}
      initialValues={{ language: uiLanguageInfo(uiLanguage).readingLanguage, agreement: false }}
      scrollToFirstError
    >
      {failure && (
        <Alert
          type="error"
          showIcon
          role="alert"
          className="yd-form-alert"
          title={t('register.failed')}
          description={failure}
        />
      )}
      {method === 'email' ? (
        <Form.Item name="email" label={t('register.email')} rules={rules.email} validateTrigger="onBlur">
          <Input prefix={<MailOutlined />} placeholder={t('register.emailPlaceholder')} autoComplete="email" />
        </Form.Item>
      ) : (
        <>
          <Form.Item name="phone" label={t('register.phone')} rules={rules.phone} validateTrigger="onBlur">
            <Input prefix={<MobileOutlined />} placeholder={t('register.phonePlaceholder')} autoComplete="tel" />
          </Form.Item>
          <Form.Item
            label={t('register.code')}
            required
            extra={
              codeSentTo || countdown.active ? (
                <>
                  {codeSentTo && <div>{t('register.codeSent', { to: codeSentTo })}</div>}
                  {countdown.active && <div>{t('register.retryAfter', { n: countdown.remaining })}</div>}
                </>
              ) : undefined
            }
          >
            <Space.Compact block>
              <Form.Item name="code" noStyle rules={rules.code}>
                <Input
                  prefix={<SafetyOutlined />}
                  placeholder={t('register.codePlaceholder')}
                  autoComplete="one-time-code"
                  inputMode="numeric"
                  aria-label={t('register.code')}
                />
              </Form.Item>
              <Button onClick={sendCode} loading={sending} disabled={countdown.active} className="yd-code-button">
                {codeButtonLabel}
              </Button>
            </Space.Compact>
          </Form.Item>
        </>
      )}
      <Form.Item
        name="account"
        label={t('register.account')}
        rules={rules.account}
        extra={method === 'email' ? t('register.accountHintEmail') : t('register.accountHintPhone')}
      >
        <Input prefix={<UserOutlined />} autoComplete="username" />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('register.password')}
        rules={rules.password}
        extra={t('register.passwordHint')}
      >
        <Input.Password prefix={<LockOutlined />} autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="confirm" label={t('register.confirm')} rules={rules.confirm()} dependencies={['password']}>
        <Input.Password prefix={<LockOutlined />} autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="nickname" label={t('register.nickname')} rules={rules.nickname}>
        <Input placeholder={t('register.nicknamePlaceholder')} autoComplete="nickname" />
      </Form.Item>
      <Form.Item name="inviteCode" label={t('register.invite')} rules={rules.invite(requireInvite)}>
        <Input placeholder={requireInvite ? undefined : t('register.invitePlaceholder')} />
      </Form.Item>
      <Form.Item name="language" label={t('register.language')} extra={t('register.languageHint')}>
        <ReadingLanguageSelect aria-label={t('register.language')} />
      </Form.Item>
      <Form.Item name="agreement" valuePropName="checked" rules={rules.agreement}>
        <Checkbox>
          {t('register.agreePrefix')}{' '}
          <a
            href="#agreement"
            onClick={(event) => {
              event.preventDefault();
              event.stopPropagation();
              setAgreementOpen(true);
            }}
          >
            {t('register.agreementLink')}
          </a>
        </Checkbox>
      </Form.Item>
      <Button type="primary" htmlType="submit" block size="large" loading={submitting}>
        {t('register.submit')}
      </Button>
      <AgreementModal open={agreementOpen} onClose={() => setAgreementOpen(false)} />
    </Form>
  );
}

/** /register (SPEC §2.4, §5): by email or by phone. */
export default function RegisterPage() {
  const { t } = useTranslation();
  usePageTitle(t('register.pageTitle'));
  const config = usePublicConfig();
  const [method, setMethod] = useState<Method>('email');
  const [activationEmail, setActivationEmail] = useState<string | null>(null);

  if (activationEmail) {
    return (
      <Result
        status="success"
        icon={<MailOutlined className="yd-result-icon" />}
        title={t('register.activationTitle')}
        subTitle={
          <>
            <p>{t('register.activationText', { email: activationEmail })}</p>
            <p>{t('register.activationHint')}</p>
          </>
        }
        extra={
          <Link to="/login">
            <Button type="primary">{t('register.goLogin')}</Button>
          </Link>
        }
      />
    );
  }

  const common = {
    requireInvite: config.data?.requireInvite ?? false,
    resendSeconds: config.data?.codeResendSeconds ?? DEFAULT_RESEND_SECONDS,
    onActivationSent: setActivationEmail,
  };
  const phoneAvailable = config.data?.phoneRegistration !== false;

  return (
    <>
      <AuthHeader title={t('register.title')} subtitle={t('register.subtitle')} />
      <Tabs
        activeKey={method}
        onChange={(key) => setMethod(key as Method)}
        centered
        items={[
          {
            key: 'email',
            label: t('register.byEmail'),
            icon: <MailOutlined />,
            children: <RegisterForm method="email" {...common} />,
          },
          {
            key: 'phone',
            label: (
              <span title={phoneAvailable ? undefined : t('register.phoneUnavailable')}>{t('register.byPhone')}</span>
            ),
            icon: <MobileOutlined />,
            disabled: !phoneAvailable,
            children: <RegisterForm method="phone" {...common} />,
          },
        ]}
      />
      <div className="yd-auth-footer">
        {t('register.haveAccount')} <Link to="/login">{t('register.login')}</Link>
      </div>
    </>
  );
}
