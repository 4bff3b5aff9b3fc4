import { useState } from 'react';
import { Alert, App, Button, Empty, Form, Input, Popconfirm, Space, Spin, Tag } from 'antd';
import {
  CheckOutlined,
  CloseOutlined,
  DeleteOutlined,
  EditOutlined,
  PlusOutlined,
  RobotOutlined,
} from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Glossary, GlossarySuggestion } from '@yidu/shared/glossary';
import { ApiError } from '../../api/client.ts';
import { errorMessage } from '../../api/errors.ts';
import { glossaryApi, type EditableEntry } from '../../api/glossary.ts';
import './glossary.css';

export interface GlossaryPanelProps {
  bookCode: string;
  /** The reading language: a book has one glossary per language it is read in. */
  language: string;
}

export const glossaryQueryKey = (bookCode: string, language: string) => ['glossary', bookCode, language] as const;

type Draft = { source: string; target: string; note: string };
const toDraft = (e?: EditableEntry): Draft => ({
  source: e?.source ?? '',
  target: e?.target ?? '',
  note: e?.note ?? '',
});

/**
 * The book's names and terms as they are rendered in the reading language. The owner edits them and
 * has the paragraphs already translated with older terms retranslated (after the price is shown);
 * other readers suggest entries, which the owner accepts or rejects.
 */
export function GlossaryPanel({ bookCode, language }: GlossaryPanelProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const client = useQueryClient();
  const key = glossaryQueryKey(bookCode, language);
  const query = useQuery({
    queryKey: key,
    queryFn: () => glossaryApi.get(bookCode, language),
    // While paragraphs are being retranslated, follow them until they are done.
    refetchInterval: (q) => ((q.state.data?.retranslation?.running ?? 0) > 0 ? 2000 : false),
  });
  const [editing, setEditing] = useState<{ index: number | null; draft: Draft } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const run = async (what: string, action: () => Promise<Glossary>, done?: string) => {
    setBusy(what);
    try {
      client.setQueryData(key, await action());
      if (done) void message.success(done);
      return true;
    } catch (error) {
      void message.error(errorMessage(error));
      return false;
    } finally {
      setBusy(null);
    }
  };

  if (query.isPending) return <Spin />;
  if (query.isError) return <Alert type="warning" showIcon message={errorMessage(query.error)} />;
  const glossary = query.data;
  const entries = glossary.entries;

  const saveEntries = (next: EditableEntry[]) =>
    run(
      'save',
      () =>
        glossaryApi.save(
          bookCode,
          language,
          next.map(({ source, target, note }) => ({ source, target, note: note ?? null })),
        ),
      t('glossary.saved'),
    );

  const submitDraft = async (draft: Draft) => {
    const entry = { source: draft.source.trim(), target: draft.target.trim(), note: draft.note.trim() || null };
    if (!entry.source || !entry.target) return;
    if (glossary.editable) {
      const next = entries.filter((_, i) => i !== editing?.index && entries[i]!.source !== entry.source);
      if (await saveEntries([...next, entry])) setEditing(null);
    } else if (await run('suggest', () => glossaryApi.suggest(bookCode, language, entry), t('glossary.suggested'))) {
      setEditing(null);
    }
  };

  const retranslate = () => {
    const quote = glossary.retranslation;
    if (!quote) return;
    modal.confirm({
      title: t('glossary.retranslate.confirmTitle'),
      content: t('glossary.retranslate.confirmText', { count: quote.paragraphs, points: quote.points }),
      okText: t('glossary.retranslate.confirmOk'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          const { quote: after, held } = await glossaryApi.retranslate(bookCode, language, quote.points);
          client.setQueryData<Glossary>(key, (old) => (old ? { ...old, retranslation: after } : old));
          void message.success(t('glossary.retranslate.started', { count: quote.paragraphs, points: held }));
          // The pages shown send the paragraphs back as pending; they then follow the new translations.
          await client.invalidateQueries({ queryKey: ['readerPage', bookCode, language] });
        } catch (error) {
          if (error instanceof ApiError && error.key === 'quoteChanged') {
            void message.warning(t('glossary.retranslate.changed'));
            void query.refetch();
          } else void message.error(errorMessage(error));
        }
      },
    });
  };

  const quote = glossary.retranslation;
  return (
    <div className="yd-glossary">
      <p className="yd-muted yd-glossary-intro">
        {glossary.editable ? t('glossary.introOwner') : t('glossary.introReader')}
      </p>
      {quote && quote.running > 0 && (
        <Alert type="info" showIcon message={t('glossary.retranslate.running', { count: quote.running })} />
      )}
      {quote && quote.paragraphs > 0 && (
        <Alert
          type="warning"
          showIcon
          className="yd-glossary-quote"
          message={t('glossary.retranslate.outdated', { count: quote.paragraphs })}
          description={t('glossary.retranslate.price', { points: quote.points })}
          action={
            <Button size="small" type="primary" onClick={retranslate}>
              {t('glossary.retranslate.action')}
            </Button>
          }
        />
      )}
      <div className="yd-side-actions">
        <Button size="small" icon={<PlusOutlined />} onClick={() => setEditing({ index: null, draft: toDraft() })}>
          {glossary.editable ? t('glossary.add') : t('glossary.suggest')}
        </Button>
        {glossary.editable && (
          <Button
            size="small"
            icon={<RobotOutlined />}
            loading={busy === 'extract'}
            onClick={() => void run('extract', () => glossaryApi.extract(bookCode, language), t('glossary.extracted'))}
          >
            {t('glossary.extract')}
          </Button>
        )}
      </div>
      {editing && editing.index === null && (
        <EntryForm
          initial={editing.draft}
          saving={busy === 'save' || busy === 'suggest'}
          submitLabel={glossary.editable ? t('glossary.save') : t('glossary.sendSuggestion')}
          onSubmit={(draft) => void submitDraft(draft)}
          onCancel={() => setEditing(null)}
        />
      )}
      {entries.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('glossary.empty')} />
      ) : (
        <ul className="yd-glossary-list" aria-label={t('glossary.tab')}>
          {entries.map((entry, index) =>
            editing?.index === index ? (
              <li key={entry.source}>
                <EntryForm
                  initial={editing.draft}
                  saving={busy === 'save'}
                  submitLabel={t('glossary.save')}
                  onSubmit={(draft) => void submitDraft(draft)}
                  onCancel={() => setEditing(null)}
                />
              </li>
            ) : (
              <li key={entry.source} className="yd-glossary-entry" data-source={entry.source}>
                <div className="yd-glossary-terms">
                  <span className="yd-glossary-source">{entry.source}</span>
                  <span className="yd-glossary-arrow" aria-hidden>
                    →
                  </span>
                  <span className="yd-glossary-target">{entry.target}</span>
                  {entry.origin !== 'owner' && (
                    <Tag bordered={false} className="yd-glossary-origin">
                      {t(`glossary.origin.${entry.origin}`)}
                    </Tag>
                  )}
                </div>
                {entry.note && <div className="yd-glossary-note">{entry.note}</div>}
                {glossary.editable && (
                  <Space size={0} className="yd-glossary-tools">
                    <Button
                      type="text"
                      size="small"
                      icon={<EditOutlined />}
                      aria-label={t('glossary.edit', { source: entry.source })}
                      onClick={() => setEditing({ index, draft: toDraft(entry) })}
                    />
                    <Popconfirm
                      title={t('glossary.deleteConfirm', { source: entry.source })}
                      okText={t('glossary.delete')}
                      cancelText={t('common.cancel')}
                      onConfirm={() => void saveEntries(entries.filter((_, i) => i !== index))}
                    >
                      <Button
                        type="text"
                        size="small"
                        icon={<DeleteOutlined />}
                        aria-label={t('glossary.deleteEntry', { source: entry.source })}
                      />
                    </Popconfirm>
                  </Space>
                )}
              </li>
            ),
          )}
        </ul>
      )}
      {glossary.suggestions.length > 0 && (
        <Suggestions
          suggestions={glossary.suggestions}
          owner={glossary.editable}
          busy={busy}
          onDecide={(s, accept) =>
            void run(
              `decide-${s.id}`,
              () => glossaryApi.decide(bookCode, s.id, accept),
              accept ? t('glossary.accepted') : undefined,
            )
          }
        />
      )}
    </div>
  );
}

function EntryForm(props: {
  initial: Draft;
  saving: boolean;
  submitLabel: string;
  onSubmit: (draft: Draft) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Draft>();
  return (
    <Form
      form={form}
      layout="vertical"
      size="small"
      className="yd-glossary-form"
      initialValues={props.initial}
      onFinish={props.onSubmit}
    >
      <Form.Item
        name="source"
        label={t('glossary.field.source')}
        rules={[{ required: true, whitespace: true, max: 200 }]}
      >
        <Input autoFocus />
      </Form.Item>
      <Form.Item
        name="target"
        label={t('glossary.field.target')}
        rules={[{ required: true, whitespace: true, max: 200 }]}
      >
        <Input />
      </Form.Item>
      <Form.Item name="note" label={t('glossary.field.note')} rules={[{ max: 500 }]}>
        <Input placeholder={t('glossary.field.notePlaceholder')} />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" loading={props.saving}>
          {props.submitLabel}
        </Button>
        <Button onClick={props.onCancel}>{t('common.cancel')}</Button>
      </Space>
    </Form>
  );
}

function Suggestions(props: {
  suggestions: GlossarySuggestion[];
  owner: boolean;
  busy: string | null;
  onDecide: (suggestion: GlossarySuggestion, accept: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <section className="yd-glossary-suggestions">
      <h4>{props.owner ? t('glossary.suggestionsOwner') : t('glossary.suggestionsMine')}</h4>
      <ul className="yd-glossary-list">
        {props.suggestions.map((s) => (
          <li key={s.id} className="yd-glossary-entry" data-suggestion={s.id}>
            <div className="yd-glossary-terms">
              <span className="yd-glossary-source">{s.source}</span>
              <span className="yd-glossary-arrow" aria-hidden>
                →
              </span>
              <span className="yd-glossary-target">{s.target}</span>
              {!props.owner && <Tag bordered={false}>{t(`glossary.status.${s.status}`)}</Tag>}
            </div>
            {(s.note || (props.owner && s.by)) && (
              <div className="yd-glossary-note">
                {[s.note, props.owner && s.by ? t('glossary.by', { name: s.by }) : null].filter(Boolean).join(' · ')}
              </div>
            )}
            {props.owner && (
              <Space size={0} className="yd-glossary-tools">
                <Button
                  type="text"
                  size="small"
                  icon={<CheckOutlined />}
                  loading={props.busy === `decide-${s.id}`}
                  aria-label={t('glossary.accept', { source: s.source })}
                  onClick={() => props.onDecide(s, true)}
                />
                <Button
                  type="text"
                  size="small"
                  icon={<CloseOutlined />}
                  aria-label={t('glossary.reject', { source: s.source })}
                  onClick={() => props.onDecide(s, false)}
                />
              </Space>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
