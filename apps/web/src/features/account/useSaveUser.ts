import { useCallback } from 'react';
import { App } from 'antd';
import type { UpdateUserinfoBody, UserInfo } from '@yidu/shared/auth';
import { userApi } from '../../api/user.ts';
import { errorMessage } from '../../api/errors.ts';
import { useAuth } from '../../stores/auth.ts';

/**
 * Runs one change of the personal center and says how it went, each change with its own success and
 * failure message (SPEC §8.4). A UserInfo answer replaces the stored user. Resolves true on success.
 */
export function useSettingsAction() {
  const { message } = App.useApp();
  const setUser = useAuth((s) => s.setUser);
  return useCallback(
    async <T>(action: () => Promise<T>, success: string, failure: string): Promise<T | undefined> => {
      try {
        const result = await action();
        if (isUserInfo(result)) setUser(result);
        void message.success(success);
        return result;
      } catch (error) {
        void message.error(`${failure}: ${errorMessage(error)}`);
        return undefined;
      }
    },
    [message, setUser],
  );
}

/** updateUserinfo with the messages of one setting. */
export function useSaveUser() {
  const run = useSettingsAction();
  return useCallback(
    async (body: UpdateUserinfoBody, success: string, failure: string) =>
      (await run(() => userApi.updateUserinfo(body), success, failure)) !== undefined,
    [run],
  );
}

function isUserInfo(value: unknown): value is UserInfo {
  return typeof value === 'object' && value !== null && 'account' in value && 'deductMode' in value;
}
