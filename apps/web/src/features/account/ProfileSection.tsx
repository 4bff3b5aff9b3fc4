import { useState } from 'react';
import { App, Avatar, Button, Form, Input, Typography, Upload } from 'antd';
import { CameraOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '@yidu/shared/auth';
import { settingsApi } from '../../api/settings.ts';
import { feedbackImageProblem } from '../feedback/imageRules.ts';
import { authRules } from '../auth/rules.ts';
import { useSaveUser, useSettingsAction } from './useSaveUser.ts';
import { useRenewExpiredMedia } from '../../shell/mediaRenewal.ts';

/** Avatar, username and nickname; the account and the user's own invitation code (to copy for friends). */
export function ProfileSection({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const run = useSettingsAction();
  const save = useSaveUser();
  const [uploading, setUploading] = useState(false);
  const [saving, setSaving] = useState(false);
  const rules = authRules(t);
  const renewExpired = useRenewExpiredMedia();

  const uploadAvatar = async (file: File) => {
    setUploading(true);
    await run(() => settingsApi.avatar(file), t('settings.avatarSaved'), t('settings.avatarFailed'));
    setUploading(false);
  };

  return (
    <div className="yd-settings-profile">
      <div className="yd-settings-avatar">
        <Avatar
          size={88}
          src={user.avatar || undefined}
          icon={<UserOutlined />}
          className="yd-avatar"
          onError={() => {
            renewExpired(user.avatar);
            return true;
          }}
        />
        <Upload
          accept="image/*"
          showUploadList={false}
          maxCount={1}
          beforeUpload={(file) => {
            const problem = feedbackImageProblem(file);
            if (problem) {
              void message.error(`${t('settings.avatarFailed')}: ${t(`errors.${problem}`)}`);
              return Upload.LIST_IGNORE;
            }
            void uploadAvatar(file);
            return false;
          }}
        >
          <Button size="small" icon={<CameraOutlined />} loading={uploading}>
            {t('settings.changeAvatar')}
          </Button>
        </Upload>
        <span className="yd-muted yd-settings-hint">{t('settings.avatarHint')}</span>
      </div>
      <Form
        name="settings-profile"
        layout="vertical"
        className="yd-settings-form"
        initialValues={{ username: user.username, nickname: user.nickname ?? '' }}
        onFinish={async (values: { username: string; nickname: string }) => {
          setSaving(true);
          await save(
            { username: values.username.trim(), nickname: values.nickname.trim() || null },
            t('settings.profileSaved'),
            t('settings.profileFailed'),
          );
          setSaving(false);
        }}
      >
        <Form.Item label={t('settings.account')}>
          <Input value={user.account} disabled />
        </Form.Item>
        <Form.Item label={t('settings.inviteCode')} extra={t('settings.inviteCodeHint')}>
          <Typography.Text
            className="yd-settings-invite"
            data-testid="own-invite-code"
            code
            copyable={{ tooltips: [t('settings.inviteCodeCopy'), t('settings.inviteCodeCopied')] }}
          >
            {user.inviteCode}
          </Typography.Text>
        </Form.Item>
        <Form.Item
          name="username"
          label={t('settings.username')}
          rules={[
            { required: true, whitespace: true, message: t('settings.usernameRequired') },
            { max: 40, message: t('settings.usernameTooLong', { max: 40 }) },
          ]}
        >
          <Input maxLength={40} />
        </Form.Item>
        <Form.Item name="nickname" label={t('settings.nickname')} rules={rules.nickname}>
          <Input placeholder={t('register.nicknamePlaceholder')} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('settings.save')}
        </Button>
      </Form>
    </div>
  );
}
