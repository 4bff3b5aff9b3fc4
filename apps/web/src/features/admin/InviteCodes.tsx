import { useState } from 'react';
import { Alert, App, Button, Form, Input, InputNumber, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi, type InviteCode } from '../../api/admin.ts';
import { errorMessage } from '../../api/errors.ts';
import { useFormatDateTime } from '../account/format.ts';

interface MintValues {
  count: number;
  maxUses?: number | null;
  expiresInDays?: number | null;
  note?: string;
}

/** Minted invitation codes and a form to mint more. */
export function InviteCodes() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const formatDateTime = useFormatDateTime();
  const codes = useQuery({ queryKey: ['admin', 'invites'], queryFn: adminApi.inviteCodes });
  const [minting, setMinting] = useState(false);
  const [minted, setMinted] = useState<string[]>([]);

  const mint = async (v: MintValues) => {
    setMinting(true);
    try {
      const result = await adminApi.mintInviteCodes({
        count: v.count,
        maxUses: v.maxUses ?? null,
        expiresInDays: v.expiresInDays ?? null,
        note: v.note?.trim() || null,
      });
      setMinted(result.codes);
      void message.success(t('admin.invites.minted', { n: result.codes.length }));
      void codes.refetch();
    } catch (error) {
      void message.error(`${t('admin.invites.failed')}: ${errorMessage(error)}`);
    } finally {
      setMinting(false);
    }
  };

  return (
    <div className="yd-admin-stack">
      <section className="yd-panel" aria-label={t('admin.invites.mint')}>
        <Typography.Title level={5} className="yd-section-title">
          {t('admin.invites.mint')}
        </Typography.Title>
        <Form<MintValues>
          layout="inline"
          name="mint-invites"
          className="yd-admin-form"
          initialValues={{ count: 1, maxUses: 1 }}
          onFinish={(v) => void mint(v)}
        >
          <Form.Item name="count" label={t('admin.invites.count')} rules={[{ required: true }]}>
            <InputNumber min={1} max={100} />
          </Form.Item>
          <Form.Item name="maxUses" label={t('admin.invites.maxUses')} tooltip={t('admin.invites.unlimitedHint')}>
            <InputNumber min={1} max={100000} placeholder="∞" />
          </Form.Item>
          <Form.Item
            name="expiresInDays"
            label={t('admin.invites.expiresInDays')}
            tooltip={t('admin.invites.neverHint')}
          >
            <InputNumber min={1} max={3650} placeholder="∞" />
          </Form.Item>
          <Form.Item name="note" label={t('admin.invites.note')}>
            <Input maxLength={200} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={minting}>
            {t('admin.invites.mintButton')}
          </Button>
        </Form>
        {minted.length > 0 && (
          <Alert
            type="success"
            showIcon
            className="yd-admin-spaced"
            title={t('admin.invites.newCodes')}
            description={
              <Typography.Paragraph copyable={{ text: minted.join('\n') }} className="yd-admin-codes">
                {minted.join('  ')}
              </Typography.Paragraph>
            }
          />
        )}
      </section>
      <section className="yd-panel" aria-label={t('admin.invites.title')}>
        <Typography.Title level={5} className="yd-section-title">
          {t('admin.invites.title')}
        </Typography.Title>
        {codes.isError ? (
          <Typography.Text type="danger">{errorMessage(codes.error)}</Typography.Text>
        ) : (
          <Table<InviteCode>
            size="small"
            rowKey="code"
            loading={codes.isPending}
            dataSource={codes.data ?? []}
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            scroll={{ x: 640 }}
            columns={[
              {
                key: 'code',
                title: t('admin.invites.code'),
                render: (_, c) => (
                  <Typography.Text code copyable>
                    {c.code}
                  </Typography.Text>
                ),
              },
              {
                key: 'uses',
                title: t('admin.invites.uses'),
                render: (_, c) => {
                  const full = c.maxUses !== null && c.usedCount >= c.maxUses;
                  return <Tag color={full ? 'default' : 'green'}>{`${c.usedCount} / ${c.maxUses ?? '∞'}`}</Tag>;
                },
              },
              {
                key: 'expires',
                title: t('admin.invites.expires'),
                render: (_, c) => (c.expiresAt ? formatDateTime(c.expiresAt) : t('share.neverExpires')),
              },
              { key: 'note', title: t('admin.invites.note'), render: (_, c) => c.note ?? '–' },
              { key: 'created', title: t('admin.invites.created'), render: (_, c) => formatDateTime(c.createdAt) },
            ]}
          />
        )}
      </section>
    </div>
  );
}
