import { useEffect } from 'react';
import { Link } from 'react-router';
import { Button, Result, Space } from 'antd';
import { AppstoreAddOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { NEW_TAB, useTabs } from '../../stores/tabs.ts';
import { usePageTitle } from '../../shell/usePageTitle.ts';

/** /tabs/new: activates the New Tab; its title is 'New Tab' (SPEC §2.2). */
export default function NewTabPage() {
  const { t } = useTranslation();
  const activate = useTabs((s) => s.activate);
  usePageTitle(t('tabs.newTab'), { bare: true });
  useEffect(() => activate(NEW_TAB.id), [activate]);
  return (
    <div className="yd-panel yd-coming-soon">
      <Result
        icon={
          <span className="yd-coming-soon-icon">
            <AppstoreAddOutlined />
          </span>
        }
        title={<h1 className="yd-page-heading">{t('tabs.newTab')}</h1>}
        subTitle={t('pages.newTab.soon')}
        extra={
          <Space wrap>
            <Link to="/books/user">
              <Button type="primary">{t('nav.myLibrary')}</Button>
            </Link>
            <Link to="/books/all">
              <Button>{t('nav.publicLibrary')}</Button>
            </Link>
          </Space>
        }
      />
    </div>
  );
}
