import type { HookAPI } from 'antd/es/modal/useModal';
import { ExclamationCircleFilled } from '@ant-design/icons';

type Translate = (key: string, values?: Record<string, unknown>) => string;

/**
 * SPEC §4.2: making a book public asks for confirmation with a warning first (upload wizard, detail
 * popup, batch manage). `onConfirm` runs only when the user agrees.
 */
export function confirmPublic(modal: HookAPI, t: Translate, onConfirm: () => unknown, onCancel?: () => void): void {
  void modal.confirm({
    title: t('books.publicConfirm.title'),
    icon: <ExclamationCircleFilled />,
    content: t('books.publicConfirm.text'),
    okText: t('books.publicConfirm.ok'),
    cancelText: t('common.cancel'),
    onOk: async () => {
      await onConfirm();
    },
    onCancel,
  });
}
