import { useState } from 'react';
import { App, Button, Form, InputNumber, Skeleton, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PRICE_KEYS, adminApi, type Prices } from '../../api/admin.ts';
import { errorMessage } from '../../api/errors.ts';

/** Points per action; translation prices are per 1,000 characters. */
export function PricesEditor() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const prices = useQuery({ queryKey: ['admin', 'prices'], queryFn: adminApi.prices });
  const [saving, setSaving] = useState(false);
  if (prices.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (prices.isError) return <Typography.Text type="danger">{errorMessage(prices.error)}</Typography.Text>;
  const keys = [
    ...PRICE_KEYS,
    ...Object.keys(prices.data).filter((k) => !(PRICE_KEYS as readonly string[]).includes(k)),
  ];
  return (
    <section className="yd-panel" aria-label={t('admin.prices.title')}>
      <Typography.Title level={5} className="yd-section-title">
        {t('admin.prices.title')}
      </Typography.Title>
      <p className="yd-muted">{t('admin.prices.hint')}</p>
      <Form<Prices>
        name="prices"
        layout="horizontal"
        labelCol={{ flex: '240px' }}
        labelWrap
        className="yd-prices-form"
        initialValues={prices.data}
        onFinish={async (values) => {
          setSaving(true);
          try {
            const changed = Object.fromEntries(
              Object.entries(values).filter(([k, v]) => typeof v === 'number' && v !== prices.data[k]),
            );
            const saved = await adminApi.savePrices(changed);
            queryClient.setQueryData(['admin', 'prices'], saved);
            void message.success(t('admin.prices.saved'));
          } catch (error) {
            void message.error(`${t('admin.prices.failed')}: ${errorMessage(error)}`);
          } finally {
            setSaving(false);
          }
        }}
      >
        {keys.map((k) => (
          <Form.Item
            key={k}
            name={k}
            label={t(`admin.prices.key.${k}`, { defaultValue: t(`points.reason.${k}`, { defaultValue: k }) })}
          >
            <InputNumber min={0} max={100000} addonAfter={t('admin.prices.points')} />
          </Form.Item>
        ))}
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('admin.prices.save')}
        </Button>
      </Form>
    </section>
  );
}
