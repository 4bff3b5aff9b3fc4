import { useEffect, useState } from 'react';
import { App, Alert, Button, Input, Radio, Select, Skeleton, Space, Switch, Tag, Typography } from 'antd';
import { ApiOutlined, UndoOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LLM_PRESETS, llmPresetOf, type AiModelUse, type LlmPresetId } from '@yidu/shared/llm-presets';
import { errorMessage } from '../../api/errors.ts';
import { SETUP_QUERY, setupApi, type AiModelSave, type AiModelView, type ModelTest } from '../../api/setup.ts';
import { EngineTestResult } from './Diagnostics.tsx';
import type { KeyAction } from './EngineSettings.tsx';
import { isHttpUrl, originOf } from '@yidu/shared/service-url';

const MODELS_QUERY = ['admin', 'ai-models'] as const;

export interface ModelDraft {
  baseUrl: string;
  model: string;
  keyAction: KeyAction;
  newKey: string;
  enabled: boolean;
}

export const toModelDraft = (m: AiModelView): ModelDraft => ({
  baseUrl: m.source === 'inherited' ? '' : (m.baseUrl ?? ''),
  model: m.source === 'inherited' ? '' : (m.model ?? ''),
  keyAction: 'keep',
  newKey: '',
  enabled: m.enabled,
});

/** The PUT body: "keep" omits apiKey (the server keeps it for the same service only), "remove" sends ''. */
export function toModelSave(use: AiModelUse, d: ModelDraft): AiModelSave {
  const body: AiModelSave = { baseUrl: d.baseUrl.trim(), model: d.model.trim() };
  if (d.keyAction === 'remove') body.apiKey = '';
  else if (d.keyAction === 'replace') body.apiKey = d.newKey.trim();
  if (use === 'translation') body.enabled = d.enabled;
  return body;
}

/** One use's model: a preset or any OpenAI-compatible service, its key, Test, Save and back to the default. */
function ModelCard({ view }: { view: AiModelView }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => toModelDraft(view));
  const [busy, setBusy] = useState<'save' | 'test' | 'reset' | null>(null);
  const [test, setTest] = useState<ModelTest | Error | null>(null);
  useEffect(() => setDraft(toModelDraft(view)), [view]);

  const update = (change: Partial<ModelDraft>) => {
    setDraft((d) => ({ ...d, ...change }));
    setTest(null);
  };
  const preset = llmPresetOf(draft.baseUrl) ?? (draft.baseUrl ? 'custom' : undefined);
  const urlValid = draft.baseUrl.trim() !== '' && isHttpUrl(draft.baseUrl.trim());
  const valid = urlValid && draft.model.trim() !== '' && (draft.keyAction !== 'replace' || draft.newKey.trim() !== '');
  const edited =
    JSON.stringify(toModelSave(view.use, draft)) !== JSON.stringify(toModelSave(view.use, toModelDraft(view)));
  // An inherited model's key is the explanation model's: a model of its own starts without one.
  const ownKey = view.hasApiKey && view.source !== 'inherited';
  // A stored key goes only to the service it was saved for (the server enforces it; this says it).
  const keyStaysBehind = ownKey && draft.keyAction === 'keep' && originOf(draft.baseUrl) !== originOf(view.baseUrl);

  const saved = (views: AiModelView[]) => {
    queryClient.setQueryData(MODELS_QUERY, views);
    void queryClient.invalidateQueries({ queryKey: SETUP_QUERY });
    void queryClient.invalidateQueries({ queryKey: ['admin', 'engines'] });
  };
  const run = async (kind: 'save' | 'test' | 'reset') => {
    setBusy(kind);
    try {
      if (kind === 'test') {
        setTest(await setupApi.testAiModel(view.use, edited ? toModelSave(view.use, draft) : undefined));
        if (!edited) void queryClient.invalidateQueries({ queryKey: SETUP_QUERY });
      } else if (kind === 'save') {
        saved(await setupApi.saveAiModel(view.use, toModelSave(view.use, draft)));
        void message.success(t('admin.ai.saved'));
      } else {
        saved(await setupApi.resetAiModel(view.use));
        void message.success(t('admin.ai.resetDone'));
      }
    } catch (error) {
      if (kind === 'test') setTest(error instanceof Error ? error : new Error(String(error)));
      else void message.error(`${t('admin.ai.failed')}: ${errorMessage(error)}`);
    } finally {
      setBusy(null);
    }
  };
  const choosePreset = (id: LlmPresetId | 'custom') => {
    const found = LLM_PRESETS.find((p) => p.id === id);
    update(found ? { baseUrl: found.baseUrl, model: found.model } : { baseUrl: '', model: '' });
  };
  const label = `ai-${view.use}`;

  return (
    <li className="yd-engine yd-ai-model" data-testid={`ai-model-${view.use}`}>
      <div className="yd-engine-head">
        <strong>{t(`admin.ai.use.${view.use}`)}</strong>
        <Tag color={view.source === 'none' ? 'red' : view.source === 'admin' ? 'blue' : undefined}>
          {t(`admin.ai.source.${view.source}`)}
        </Tag>
        {view.use === 'translation' && (
          <Switch
            checked={draft.enabled}
            onChange={(enabled) => update({ enabled })}
            checkedChildren={t('admin.ai.useForTranslation')}
            unCheckedChildren={t('admin.ai.notForTranslation')}
            aria-label={t('admin.ai.useForTranslation')}
          />
        )}
      </div>
      <p className="yd-muted">
        {t(`admin.ai.useHint.${view.use}`)}
        {view.source === 'inherited' && ` ${t('admin.ai.inheritedNote', { model: view.model ?? '' })}`}
      </p>
      <div className="yd-engine-fields yd-ai-fields">
        <label>
          <span className="yd-engine-label">{t('admin.ai.preset')}</span>
          <Select<LlmPresetId | 'custom'>
            size="small"
            value={preset}
            placeholder={t('admin.ai.choosePreset')}
            onChange={choosePreset}
            aria-label={t('admin.ai.preset')}
            id={`${label}-preset`}
            options={[
              ...LLM_PRESETS.map((p) => ({ value: p.id, label: t(`admin.ai.presets.${p.id}`) })),
              { value: 'custom' as const, label: t('admin.ai.presetCustom') },
            ]}
          />
        </label>
        <label>
          <span className="yd-engine-label">{t('admin.ai.baseUrl')}</span>
          <Input
            size="small"
            value={draft.baseUrl}
            onChange={(e) => update({ baseUrl: e.target.value })}
            placeholder="https://…/v1"
            status={draft.baseUrl && !urlValid ? 'error' : undefined}
            aria-label={t('admin.ai.baseUrl')}
          />
        </label>
        <label>
          <span className="yd-engine-label">{t('admin.ai.model')}</span>
          <Input
            size="small"
            value={draft.model}
            onChange={(e) => update({ model: e.target.value })}
            aria-label={t('admin.ai.model')}
          />
        </label>
      </div>
      <div className="yd-engine-key" role="group" aria-label={t('admin.engines.apiKey')}>
        <span className="yd-engine-label">{t('admin.engines.apiKey')}</span>
        {ownKey ? (
          <Tag color="green">{t('admin.engines.keyStored', { hint: view.apiKeyHint ?? '' })}</Tag>
        ) : (
          <Tag>{t('admin.engines.noKey')}</Tag>
        )}
        <Radio.Group
          size="small"
          optionType="button"
          value={draft.keyAction}
          onChange={(e) => update({ keyAction: e.target.value as KeyAction })}
          options={[
            { value: 'keep', label: ownKey ? t('admin.engines.keep') : t('admin.engines.keepNone') },
            { value: 'replace', label: ownKey ? t('admin.engines.replace') : t('admin.engines.set') },
            ...(ownKey ? [{ value: 'remove', label: t('admin.engines.removeKey') }] : []),
          ]}
        />
        {draft.keyAction === 'replace' && (
          <Input.Password
            size="small"
            value={draft.newKey}
            onChange={(e) => update({ newKey: e.target.value })}
            placeholder={t('admin.engines.newKey')}
            aria-label={t('admin.engines.newKey')}
            autoComplete="off"
            status={draft.newKey.trim() ? undefined : 'error'}
            className="yd-engine-key-input"
          />
        )}
      </div>
      {keyStaysBehind && <Alert type="warning" showIcon title={t('admin.ai.keyStaysBehind')} />}
      {test && (
        <div className="yd-engine-test">
          <EngineTestResult result={test} />
          <span className="yd-muted">{edited ? t('admin.ai.testedEdited') : t('admin.ai.testedSaved')}</span>
        </div>
      )}
      <div className="yd-ai-footer">
        <Space>
          {view.source === 'admin' && (
            <Button size="small" icon={<UndoOutlined />} loading={busy === 'reset'} onClick={() => void run('reset')}>
              {t(view.use === 'annotation' ? 'admin.ai.resetToExplanation' : 'admin.ai.reset')}
            </Button>
          )}
        </Space>
        <Space>
          <Button
            size="small"
            icon={<ApiOutlined />}
            loading={busy === 'test'}
            disabled={edited ? !valid : view.source === 'none'}
            onClick={() => void run('test')}
          >
            {t('admin.engines.test')}
          </Button>
          <Button
            size="small"
            type="primary"
            loading={busy === 'save'}
            disabled={!edited || !valid}
            onClick={() => void run('save')}
          >
            {t('admin.ai.save')}
          </Button>
        </Space>
      </div>
    </li>
  );
}

/** AI model settings: one OpenAI-compatible model per use, applied at once in every process. */
export function AiModelSettings() {
  const { t } = useTranslation();
  const models = useQuery({ queryKey: MODELS_QUERY, queryFn: setupApi.aiModels });
  if (models.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (models.isError) return <Typography.Text type="danger">{errorMessage(models.error)}</Typography.Text>;
  return (
    <section className="yd-panel" aria-label={t('admin.ai.title')}>
      <Typography.Title level={5} className="yd-section-title">
        {t('admin.ai.title')}
      </Typography.Title>
      <p className="yd-muted">{t('admin.ai.hint')}</p>
      <ol className="yd-engine-list">
        {models.data.map((view) => (
          <ModelCard key={view.use} view={view} />
        ))}
      </ol>
    </section>
  );
}
