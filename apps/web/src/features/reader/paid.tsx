import { useCallback } from 'react';
import { App, Checkbox } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { errorMessage } from '../../api/errors.ts';

const SESSION_KEY = 'yd-confirmed-books';

/** Books whose paid actions the user agreed not to be asked about again in this session. */
export function isConfirmedForSession(bookCode: string): boolean {
  try {
    return (JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? '[]') as string[]).includes(bookCode);
  } catch {
    return false;
  }
}

export function confirmForSession(bookCode: string): void {
  try {
    const list = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? '[]') as string[];
    if (!list.includes(bookCode)) sessionStorage.setItem(SESSION_KEY, JSON.stringify([...list, bookCode]));
  } catch {
    // storage unavailable: the user is asked again
  }
}

export const isConfirmationRequired = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.key === 'pointsConfirmationRequired';

/**
 * Runs a paid action (SPEC §4.6): for 'deductAfterConfirmation' users the server answers with the price
 * first; the user is asked, then it runs again with confirm=true. Not enough points: a clear message.
 * Resolves undefined when the user declined or it failed (the failure is shown).
 */
export function usePaidAction(bookCode: string) {
  const { modal, message } = App.useApp();
  const { t } = useTranslation();

  const ask = useCallback(
    (points: number) =>
      new Promise<boolean>((resolve) => {
        let remember = false;
        modal.confirm({
          title: t('reader.paid.title'),
          content: (
            <div className="yd-paid-confirm">
              <p>{t('reader.paid.text', { points })}</p>
              <Checkbox onChange={(e) => (remember = e.target.checked)}>{t('reader.paid.remember')}</Checkbox>
            </div>
          ),
          okText: t('reader.paid.ok'),
          cancelText: t('common.cancel'),
          onOk: () => {
            if (remember) confirmForSession(bookCode);
            resolve(true);
          },
          onCancel: () => resolve(false),
        });
      }),
    [modal, t, bookCode],
  );

  const explain = useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && error.key === 'insufficientPoints') {
        const balance = typeof error.data?.balance === 'number' ? error.data.balance : undefined;
        const points = typeof error.data?.points === 'number' ? error.data.points : undefined;
        modal.warning({
          title: t('errors.insufficientPoints'),
          content:
            balance !== undefined && points !== undefined
              ? t('reader.paid.insufficient', { points, balance })
              : t('reader.paid.insufficientShort'),
        });
        return;
      }
      void message.error(errorMessage(error));
    },
    [modal, message, t],
  );

  return useCallback(
    async <T,>(run: (confirm: boolean) => Promise<T>, options: { silent?: boolean } = {}): Promise<T | undefined> => {
      const remembered = isConfirmedForSession(bookCode);
      try {
        return await run(remembered);
      } catch (error) {
        if (isConfirmationRequired(error)) {
          const points = typeof error.data?.points === 'number' ? error.data.points : 0;
          if (!(await ask(points))) return undefined;
          try {
            return await run(true);
          } catch (again) {
            if (options.silent) throw again;
            explain(again);
            return undefined;
          }
        }
        if (options.silent) throw error;
        explain(error);
        return undefined;
      }
    },
    [bookCode, ask, explain],
  );
}

/** Shows a failure of a paid action the way usePaidAction does (for errors caught elsewhere). */
export function usePaidErrorText() {
  const { t } = useTranslation();
  return (error: unknown): string => {
    if (error instanceof ApiError && error.key === 'insufficientPoints') {
      const balance = error.data?.balance;
      const points = error.data?.points;
      return typeof balance === 'number' && typeof points === 'number'
        ? t('reader.paid.insufficient', { points, balance })
        : t('errors.insufficientPoints');
    }
    return errorMessage(error);
  };
}
