import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { App } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { userApi } from '../../api/user.ts';
import { useAuth } from '../../stores/auth.ts';
import { useTabs } from '../../stores/tabs.ts';
import i18n from '../../i18n/index.ts';

export interface LogoutEffects {
  notify: (text: string) => void;
  navigate: (to: string) => void;
  afterClear?: () => void;
}

/**
 * SPEC §4.4, in this order: call logout (errors only logged), clear the tabs, say 'You have logged out',
 * remove the token, go to /login.
 */
export async function performLogout({ notify, navigate, afterClear }: LogoutEffects): Promise<void> {
  try {
    await userApi.logout();
  } catch (error) {
    console.log('Logout call failed; logging out locally anyway', error);
  }
  useTabs.getState().clear();
  notify(i18n.t('user.loggedOut'));
  useAuth.getState().clear();
  afterClear?.();
  navigate('/login');
}

/** Asks 'Are you sure you want to log out?' and then logs out. */
export function useLogout(): () => void {
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useCallback(() => {
    modal.confirm({
      title: t('user.logoutConfirm'),
      okText: t('user.logout'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: () =>
        performLogout({
          notify: (text) => void message.success(text),
          navigate: (to) => void navigate(to, { replace: true }),
          afterClear: () => queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'config' }),
        }),
    });
  }, [modal, message, navigate, queryClient, t]);
}
