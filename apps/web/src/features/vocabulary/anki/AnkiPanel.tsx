import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Collapse, Form, Input, Modal, Select, Space, Typography } from 'antd';
import { SendOutlined } from '@ant-design/icons';
import { Trans, useTranslation } from 'react-i18next';
import { integrationsApi } from '../../../api/offline.ts';
import { errorMessage } from '../../../api/errors.ts';
import { addNew, AnkiConnectError, DEFAULT_ANKI_ADDRESS, invoke, requestPermission } from './ankiConnect.ts';
import { guessFields, noteOf, SOURCES, type AnkiSettings, type Source } from './ankiNotes.ts';

const STORAGE_KEY = 'ankiConnect';

function loadSettings(): AnkiSettings {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as AnkiSettings | null;
    if (saved?.address) return saved;
  } catch {
    // fall through to the defaults
  }
  return { address: DEFAULT_ANKI_ADDRESS, deck: '', model: '', fields: {} };
}

function saveSettings(settings: AnkiSettings): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(settings));
  } catch {
    // kept for this visit only
  }
}

interface Collection {
  decks: string[];
  models: string[];
  fieldNames: string[];
}

/**
 * Words to Anki through AnkiConnect, from this browser: the add-on's address (this device's, so kept
 * in this browser), the deck and note type (from Anki), each field of the note type and what goes into
 * it; then the words not sent yet go to Anki, duplicates skipped, and the server remembers what was
 * sent so that every device knows. How to allow Yidu's address in AnkiConnect is explained below.
 */
export function AnkiPanel({ open, onClose, bookCode }: { open: boolean; onClose: () => void; bookCode?: string }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [settings, setSettings] = useState<AnkiSettings>(loadSettings);
  const [collection, setCollection] = useState<Collection | null>(null);
  const [busy, setBusy] = useState<'connect' | 'send' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const origin = window.location.origin;

  const update = (change: Partial<AnkiSettings>) =>
    setSettings((old) => {
      const next = { ...old, ...change };
      saveSettings(next);
      return next;
    });

  const explain = (error: unknown) => {
    if (error instanceof AnkiConnectError) {
      if (error.kind === 'anki') return t('anki.ankiError', { error: error.message });
      return t(error.kind === 'refused' ? 'anki.refused' : 'anki.unreachable', { address: settings.address, origin });
    }
    return errorMessage(error);
  };

  const chooseModel = async (model: string, decks = collection?.decks ?? [], models = collection?.models ?? []) => {
    // The choice shows at once; its fields follow from Anki (or its error does).
    setCollection({ decks, models, fieldNames: [] });
    const previous = settings;
    update({ model });
    const fieldNames = await invoke<string[]>(settings.address, 'modelFieldNames', { modelName: model });
    setCollection({ decks, models, fieldNames });
    const known = model === previous.model && Object.keys(previous.fields).join() === fieldNames.join();
    update({ model, fields: known ? previous.fields : guessFields(fieldNames) });
  };

  const connect = async () => {
    setBusy('connect');
    setProblem(null);
    setResult(null);
    try {
      const permission = await requestPermission(settings.address);
      if (permission.permission !== 'granted') throw new AnkiConnectError('refused', 'denied');
      const [decks, models] = await Promise.all([
        invoke<string[]>(settings.address, 'deckNames'),
        invoke<string[]>(settings.address, 'modelNames'),
      ]);
      const deck = decks.includes(settings.deck) ? settings.deck : (decks[0] ?? '');
      const model = models.includes(settings.model) ? settings.model : (models[0] ?? '');
      update({ deck });
      setCollection({ decks, models, fieldNames: [] });
      if (model) await chooseModel(model, decks, models);
    } catch (error) {
      setCollection(null);
      setProblem(explain(error));
    } finally {
      setBusy(null);
    }
  };

  const send = async () => {
    setBusy('send');
    setProblem(null);
    setResult(null);
    try {
      const words = await integrationsApi.ankiWords({ bookCode, unsent: true });
      if (words.length === 0) {
        setResult(t('anki.nothingNew'));
        return;
      }
      const { added, duplicate, errors } = await addNew(
        settings.address,
        words.map((w) => noteOf(w, settings)),
      );
      // A duplicate is already in the deck: remembered as sent too, so it is not offered again.
      const sent = words.filter((_, i) => added[i] || duplicate[i]).map((w) => w.id);
      if (sent.length > 0) await integrationsApi.ankiSent(sent);
      const addedCount = added.filter(Boolean).length;
      const duplicates = duplicate.filter(Boolean).length;
      setResult(t('anki.sent', { added: addedCount, duplicates, failed: words.length - addedCount - duplicates }));
      if (errors.length > 0) setProblem(t('anki.ankiError', { error: errors.join('; ') }));
      void client.invalidateQueries({ queryKey: ['vocabulary'] });
    } catch (error) {
      setProblem(explain(error));
    } finally {
      setBusy(null);
    }
  };

  const sourceOptions = [
    { value: '', label: t('anki.source.none') },
    ...SOURCES.map((s) => ({ value: s, label: t(`anki.source.${s}`) })),
  ];
  const config = JSON.stringify({ webCorsOriginList: ['http://localhost', origin] }, null, 2);

  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t('anki.title')} width={640} destroyOnHidden>
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Paragraph type="secondary">{t('anki.intro')}</Typography.Paragraph>
        <Form layout="vertical" requiredMark={false}>
          <Form.Item label={t('anki.address')} extra={t('anki.addressHint')}>
            <Space.Compact style={{ width: '100%' }}>
              <Input
                value={settings.address}
                onChange={(e) => update({ address: e.target.value.trim() })}
                aria-label={t('anki.address')}
              />
              <Button type="primary" loading={busy === 'connect'} onClick={() => void connect()}>
                {t('anki.connect')}
              </Button>
            </Space.Compact>
          </Form.Item>
          {collection && (
            <>
              <Form.Item label={t('anki.deck')}>
                <Select
                  value={settings.deck}
                  onChange={(deck) => update({ deck })}
                  options={collection.decks.map((d) => ({ value: d, label: d }))}
                  aria-label={t('anki.deck')}
                />
              </Form.Item>
              <Form.Item label={t('anki.model')}>
                <Select
                  value={settings.model}
                  onChange={(model) =>
                    void chooseModel(model)
                      .then(() => setProblem(null))
                      .catch((error: unknown) => setProblem(explain(error)))
                  }
                  options={collection.models.map((m) => ({ value: m, label: m }))}
                  aria-label={t('anki.model')}
                />
              </Form.Item>
              <Typography.Text strong>{t('anki.fields')}</Typography.Text>
              {collection.fieldNames.map((field) => (
                <Form.Item key={field} label={field} className="yd-anki-field">
                  <Select<Source | ''>
                    value={settings.fields[field] ?? ''}
                    onChange={(source) => update({ fields: { ...settings.fields, [field]: source } })}
                    options={sourceOptions}
                    aria-label={t('anki.fieldFor', { field })}
                  />
                </Form.Item>
              ))}
              <Button
                type="primary"
                icon={<SendOutlined />}
                loading={busy === 'send'}
                disabled={!settings.deck || !settings.model || collection.fieldNames.length === 0}
                onClick={() => void send()}
              >
                {t('anki.send')}
              </Button>
            </>
          )}
        </Form>
        {problem && <Alert type="warning" showIcon message={problem} />}
        {result && <Alert type="success" showIcon message={result} role="status" />}
        <Collapse
          items={[
            {
              key: 'allow',
              label: t('anki.allowTitle'),
              children: (
                <div className="yd-anki-allow">
                  <ol>
                    <li>{t('anki.allow1')}</li>
                    <li>{t('anki.allow2')}</li>
                    <li>
                      <Trans i18nKey="anki.allow3" values={{ origin }} components={{ code: <code /> }} />
                    </li>
                    <li>{t('anki.allow4')}</li>
                  </ol>
                  <pre>{config}</pre>
                  <Typography.Paragraph type="secondary">{t('anki.allowNote')}</Typography.Paragraph>
                </div>
              ),
            },
          ]}
        />
      </Space>
    </Modal>
  );
}
