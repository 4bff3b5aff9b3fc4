import { App, Button } from 'antd';
import { FileMarkdownOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { integrationsApi } from '../../api/offline.ts';
import { errorMessage } from '../../api/errors.ts';

/** Downloads the book's highlights and notes as one Markdown file for an Obsidian vault. */
export function ObsidianButton({ bookCode, bookName }: { bookCode: string; bookName: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const download = async () => {
    try {
      const blob = await integrationsApi.obsidian(bookCode);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `${bookName.replace(/[\\/:*?"<>|#^[\]]+/g, ' ').trim() || bookCode}.md`;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (error) {
      void message.error(errorMessage(error));
    }
  };
  return (
    <Button icon={<FileMarkdownOutlined />} onClick={() => void download()}>
      {t('integrations.obsidian.action')}
    </Button>
  );
}
