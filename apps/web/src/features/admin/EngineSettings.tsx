import { useEffect, useState } from 'react';
import {
  Alert,
  App,
  Button,
  Empty,
  Input,
  InputNumber,
  Radio,
  Select,
  Skeleton,
  Space,
  Switch,
  Tag,
  Typography,
} from 'antd';
import { ApiOutlined, ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  ENGINE_NAMES,
  adminApi,
  type EngineName,
  type EngineSave,
  type EngineTest,
  type EngineView,
} from '../../api/admin.ts';
import { errorMessage } from '../../api/errors.ts';
import { EngineTestResult } from './Diagnostics.tsx';
import { originOf } from '@yidu/shared/service-url';

export type KeyAction = 'keep' | 'replace' | 'remove';

export interface EngineDraft extends EngineView {
  keyAction: KeyAction;
  newKey: string;
}

export const toDraft = (e: EngineView): EngineDraft => ({ ...e, keyAction: 'keep', newKey: '' });

/** The PUT body of one engine: "keep" omits apiKey, "remove" sends '', "replace" sends the new key. */
export function toSave(d: EngineDraft): EngineSave {
  const { keyAction, newKey, hasApiKey: _h, apiKeyHint: _k, ...settings } = d;
  const body: EngineSave = { ...settings, endpoint: settings.endpoint?.trim() || null };
  if (keyAction === 'remove') body.apiKey = '';
  else if (keyAction === 'replace') body.apiKey = newKey.trim();
  return body;
}

const blankEngine = (name: EngineName): EngineDraft => ({
  name,
  enabled: false,
  endpoint: null,
  region: null,
  model: null,
  timeoutMs: null,
  concurrency: null,
  requestsPerMinute: null,
  hasApiKey: false,
  apiKeyHint: null,
  keyAction: 'keep',
  newKey: '',
});

/** Engine settings: ordered list (fallback order), enable, API keys kept / replaced / removed, limits, Test. */
export function EngineSettings() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const engines = useQuery({ queryKey: ['admin', 'engines'], queryFn: adminApi.engines });
  const [drafts, setDrafts] = useState<EngineDraft[] | null>(null);
  const [saving, setSaving] = useState(false);
  const [tests, setTests] = useState<Record<string, EngineTest | Error | 'running'>>({});

  useEffect(() => {
    if (engines.data) setDrafts(engines.data.map(toDraft));
  }, [engines.data]);

  if (engines.isPending || !drafts) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (engines.isError) return <Typography.Text type="danger">{errorMessage(engines.error)}</Typography.Text>;

  const update = (index: number, change: Partial<EngineDraft>) =>
    setDrafts((list) => list!.map((d, i) => (i === index ? { ...d, ...change } : d)));
  const move = (index: number, delta: number) =>
    setDrafts((list) => {
      const next = [...list!];
      const [item] = next.splice(index, 1);
      next.splice(index + delta, 0, item!);
      return next;
    });
  const missing = ENGINE_NAMES.filter((n) => !drafts.some((d) => d.name === n));
  const invalid = drafts.some((d) => d.keyAction === 'replace' && !d.newKey.trim());

  const save = async () => {
    setSaving(true);
    try {
      const saved = await adminApi.saveEngines(drafts.map(toSave));
      queryClient.setQueryData(['admin', 'engines'], saved);
      setDrafts(saved.map(toDraft));
      void queryClient.invalidateQueries({ queryKey: ['admin', 'system'] });
      void message.success(t('admin.engines.saved'));
    } catch (error) {
      void message.error(`${t('admin.engines.failed')}: ${errorMessage(error)}`);
    } finally {
      setSaving(false);
    }
  };
  const test = async (name: EngineName) => {
    setTests((s) => ({ ...s, [name]: 'running' }));
    try {
      const result = await adminApi.testEngine(name);
      setTests((s) => ({ ...s, [name]: result }));
    } catch (error) {
      setTests((s) => ({ ...s, [name]: error instanceof Error ? error : new Error(String(error)) }));
    }
  };

  return (
    <section className="yd-panel" aria-label={t('admin.engines.title')}>
      <Typography.Title level={5} className="yd-section-title">
        {t('admin.engines.title')}
      </Typography.Title>
      <p className="yd-muted">{t('admin.engines.hint')}</p>
      {drafts.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('admin.engines.none')} />}
      <ol className="yd-engine-list">
        {drafts.map((d, i) => {
          const state = tests[d.name];
          // A stored key goes only to the service it was saved for (the server enforces it; this says it).
          const savedEndpoint = engines.data.find((e) => e.name === d.name)?.endpoint;
          const keyStaysBehind =
            d.hasApiKey && d.keyAction === 'keep' && originOf(d.endpoint) !== originOf(savedEndpoint);
          return (
            <li key={d.name} className="yd-engine" data-testid={`engine-${d.name}`}>
              <div className="yd-engine-head">
                <span className="yd-engine-order">{i + 1}</span>
                <strong>{t(`settings.engine.${d.name}`, { defaultValue: d.name })}</strong>
                <Switch
                  checked={d.enabled}
                  onChange={(enabled) => update(i, { enabled })}
                  aria-label={t('admin.engines.enabled')}
                  checkedChildren={t('admin.engines.on')}
                  unCheckedChildren={t('admin.engines.off')}
                />
                <Space size={4} className="yd-engine-tools">
                  <Button
                    size="small"
                    icon={<ArrowUpOutlined />}
                    disabled={i === 0}
                    onClick={() => move(i, -1)}
                    aria-label={t('admin.engines.up')}
                  />
                  <Button
                    size="small"
                    icon={<ArrowDownOutlined />}
                    disabled={i === drafts.length - 1}
                    onClick={() => move(i, 1)}
                    aria-label={t('admin.engines.down')}
                  />
                  <Button
                    size="small"
                    icon={<ApiOutlined />}
                    loading={state === 'running'}
                    onClick={() => void test(d.name)}
                  >
                    {t('admin.engines.test')}
                  </Button>
                  <Button
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    disabled={drafts.length === 1}
                    onClick={() => setDrafts((list) => list!.filter((_, j) => j !== i))}
                    aria-label={t('admin.engines.remove')}
                  />
                </Space>
              </div>
              {state && state !== 'running' && (
                <div className="yd-engine-test">
                  <EngineTestResult result={state} />
                  <span className="yd-muted">{t('admin.engines.testSavedNote')}</span>
                </div>
              )}
              <div className="yd-engine-key" role="group" aria-label={t('admin.engines.apiKey')}>
                <span className="yd-engine-label">{t('admin.engines.apiKey')}</span>
                {d.hasApiKey ? (
                  <Tag color="green">{t('admin.engines.keyStored', { hint: d.apiKeyHint ?? '' })}</Tag>
                ) : (
                  <Tag>{t('admin.engines.noKey')}</Tag>
                )}
                <Radio.Group
                  size="small"
                  optionType="button"
                  value={d.keyAction}
                  onChange={(e) => update(i, { keyAction: e.target.value as KeyAction })}
                  options={[
                    { value: 'keep', label: d.hasApiKey ? t('admin.engines.keep') : t('admin.engines.keepNone') },
                    { value: 'replace', label: d.hasApiKey ? t('admin.engines.replace') : t('admin.engines.set') },
                    ...(d.hasApiKey ? [{ value: 'remove', label: t('admin.engines.removeKey') }] : []),
                  ]}
                />
                {d.keyAction === 'replace' && (
                  <Input.Password
                    size="small"
                    value={d.newKey}
                    onChange={(e) => update(i, { newKey: e.target.value })}
                    placeholder={t('admin.engines.newKey')}
                    aria-label={t('admin.engines.newKey')}
                    autoComplete="off"
                    status={d.newKey.trim() ? undefined : 'error'}
                    className="yd-engine-key-input"
                  />
                )}
                {d.keyAction === 'remove' && (
                  <Typography.Text type="danger">{t('admin.engines.removeNote')}</Typography.Text>
                )}
              </div>
              {keyStaysBehind && <Alert type="warning" showIcon title={t('admin.ai.keyStaysBehind')} />}
              <div className="yd-engine-fields">
                <label>
                  <span className="yd-engine-label">{t('admin.engines.endpoint')}</span>
                  <Input
                    size="small"
                    value={d.endpoint ?? ''}
                    onChange={(e) => update(i, { endpoint: e.target.value || null })}
                    placeholder="https://…"
                  />
                </label>
                <label>
                  <span className="yd-engine-label">{t('admin.engines.model')}</span>
                  <Input
                    size="small"
                    value={d.model ?? ''}
                    onChange={(e) => update(i, { model: e.target.value || null })}
                  />
                </label>
                <label>
                  <span className="yd-engine-label">{t('admin.engines.region')}</span>
                  <Input
                    size="small"
                    value={d.region ?? ''}
                    onChange={(e) => update(i, { region: e.target.value || null })}
                  />
                </label>
                <label>
                  <span className="yd-engine-label">{t('admin.engines.timeout')}</span>
                  <InputNumber
                    size="small"
                    min={1000}
                    max={600000}
                    step={1000}
                    value={d.timeoutMs}
                    onChange={(v) => update(i, { timeoutMs: v ?? null })}
                  />
                </label>
                <label>
                  <span className="yd-engine-label">{t('admin.engines.concurrency')}</span>
                  <InputNumber
                    size="small"
                    min={1}
                    max={64}
                    value={d.concurrency}
                    onChange={(v) => update(i, { concurrency: v ?? null })}
                  />
                </label>
                <label>
                  <span className="yd-engine-label">{t('admin.engines.rpm')}</span>
                  <InputNumber
                    size="small"
                    min={1}
                    max={100000}
                    value={d.requestsPerMinute}
                    onChange={(v) => update(i, { requestsPerMinute: v ?? null })}
                  />
                </label>
              </div>
            </li>
          );
        })}
      </ol>
      <div className="yd-engine-footer">
        {missing.length > 0 && (
          <Select<EngineName>
            placeholder={
              <span>
                <PlusOutlined /> {t('admin.engines.add')}
              </span>
            }
            value={null as unknown as EngineName}
            onChange={(name) => setDrafts((list) => [...list!, blankEngine(name)])}
            options={missing.map((n) => ({ value: n, label: t(`settings.engine.${n}`, { defaultValue: n }) }))}
            style={{ minWidth: 200 }}
            aria-label={t('admin.engines.add')}
          />
        )}
        <Space>
          <Button onClick={() => setDrafts(engines.data.map(toDraft))}>{t('admin.reset')}</Button>
          <Button type="primary" loading={saving} disabled={invalid} onClick={() => void save()}>
            {t('admin.engines.save')}
          </Button>
        </Space>
      </div>
    </section>
  );
}
