import { Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

const SECTIONS = ['account', 'content', 'points', 'privacy', 'changes'] as const;

/** The user agreement and privacy note (short, in every interface language). */
export function AgreementModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      onCancel={onClose}
      onOk={onClose}
      okText={t('agreement.close')}
      cancelButtonProps={{ style: { display: 'none' } }}
      title={t('agreement.title')}
      width={600}
    >
      <Typography className="yd-agreement">
        <Typography.Paragraph>{t('agreement.intro')}</Typography.Paragraph>
        {SECTIONS.map((section) => (
          <div key={section}>
            <Typography.Title level={5}>{t(`agreement.${section}Title`)}</Typography.Title>
            <Typography.Paragraph>{t(`agreement.${section}`)}</Typography.Paragraph>
          </div>
        ))}
      </Typography>
    </Modal>
  );
}
