import type { AiModelUse } from '@yidu/shared/llm-presets';
import { api, request } from './client.ts';

export type CheckStatus = 'ok' | 'warning' | 'missing' | 'failing' | 'unknown';
export type CheckId =
  'translation' | 'explanationModel' | 'annotationModel' | 'mail' | 'sms' | 'invites' | 'publicUrl' | 'storage';

export interface CheckItem {
  id: CheckId;
  essential: boolean;
  status: CheckStatus;
  detail: Record<string, string | number | boolean | null>;
}

export interface EngineHealth {
  key: string;
  kind: 'translation' | 'ai';
  name: string;
  model: string | null;
  status: 'ok' | 'failing' | 'unknown';
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  lastError: string | null;
  latencyMs: number | null;
  checkedBy: 'use' | 'probe' | 'test' | null;
}

export interface SetupReport {
  /** Something essential is missing or failing: admins see the banner. */
  attention: boolean;
  items: CheckItem[];
  health: EngineHealth[];
  probeMinutes: number;
}

export interface AiModelView {
  use: AiModelUse;
  baseUrl: string | null;
  model: string | null;
  hasApiKey: boolean;
  apiKeyHint: string | null;
  source: 'admin' | 'environment' | 'inherited' | 'none';
  enabled: boolean;
}

/** apiKey omitted keeps the stored key (for the same service only), '' removes it, a value replaces it. */
export interface AiModelSave {
  baseUrl: string;
  model: string;
  apiKey?: string;
  enabled?: boolean;
}

export interface ModelTest {
  ok: boolean;
  ms: number;
  sample: string | null;
  error: string | null;
}

/** The checklist's query: the admin page and the banner on every page share it. */
export const SETUP_QUERY = ['admin', 'setup'] as const;

/** The set-up checklist and the AI model settings; every call is admin-only on the server. */
export const setupApi = {
  report: () => api.get<SetupReport>('/admin/setup'),
  check: () => api.post<SetupReport>('/admin/setup/check'),
  aiModels: () => api.get<AiModelView[]>('/admin/ai-models'),
  saveAiModel: (use: AiModelUse, body: AiModelSave) =>
    request<AiModelView[]>(`/admin/ai-models/${use}`, { method: 'PUT', body }),
  resetAiModel: (use: AiModelUse) => request<AiModelView[]>(`/admin/ai-models/${use}`, { method: 'DELETE' }),
  /** Without settings: the saved ones; with them: the ones being edited. */
  testAiModel: (use: AiModelUse, settings?: AiModelSave) =>
    api.post<ModelTest>('/admin/ai-models/test', { use, ...settings }),
};
