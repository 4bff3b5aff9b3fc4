import path from 'node:path';
import type { Config } from '../../config/env.ts';
import { spaceOf, storageStatus } from '../../engines/storage/disk.ts';
import type { Logger } from '../../lib/logger.ts';
import type { InvitesRepo } from '../auth/invites.repo.ts';
import type { EnginesService } from '../translation/engines.service.ts';
import type { AiModelsService } from './ai-models.service.ts';
import type { HealthRow } from './health.repo.ts';
import { aiKey, translationKey, type EngineHealth, type Outcome } from './health.ts';
import { probeLlm, probeTranslationEngine } from './probe.ts';

export type CheckStatus = 'ok' | 'warning' | 'missing' | 'failing' | 'unknown';
export type CheckId =
  'translation' | 'explanationModel' | 'annotationModel' | 'mail' | 'sms' | 'invites' | 'publicUrl' | 'storage';

export interface CheckItem {
  id: CheckId;
  /** Without it a core feature does not work: admins see a banner everywhere while it is missing or failing. */
  essential: boolean;
  status: CheckStatus;
  detail: Record<string, string | number | boolean | null>;
}

export interface HealthView {
  key: string;
  kind: 'translation' | 'ai';
  /** The engine name or the AI model's use. */
  name: string;
  model: string | null;
  status: 'ok' | 'failing' | 'unknown';
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  lastError: string | null;
  latencyMs: number | null;
  checkedBy: string | null;
}

export interface SetupReport {
  /** Some essential item is missing or failing. */
  attention: boolean;
  items: CheckItem[];
  health: HealthView[];
  /** Minutes between probes; 0: probes are off. */
  probeMinutes: number;
}

const statusOf = (row: HealthRow | undefined): HealthView['status'] => {
  if (!row || (!row.lastSuccessAt && !row.lastFailureAt)) return 'unknown';
  return +(row.lastSuccessAt ?? 0) >= +(row.lastFailureAt ?? 0) ? 'ok' : 'failing';
};

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '0.0.0.0']);

export interface SetupDeps {
  config: Config;
  logger: Logger;
  engines: EnginesService;
  aiModels: AiModelsService;
  health: EngineHealth;
  invites: InvitesRepo;
}

/**
 * The admins' set-up checklist: what Yidu needs to serve readers and whether it works — measured by
 * real use, by a light probe every few minutes, and by the Test buttons — and the probe itself.
 */
export class SetupService {
  private readonly d: SetupDeps;
  constructor(deps: SetupDeps) {
    this.d = deps;
  }

  async report(): Promise<SetupReport> {
    const { config } = this.d;
    const [engines, health, models, usableInvites, space] = await Promise.all([
      this.d.engines.load(),
      this.d.health.all(),
      this.d.aiModels.view(),
      config.accounts.requireInvite ? this.d.invites.countUsable() : Promise.resolve(0),
      spaceOf(config.dataDir),
    ]);
    const enabled = engines.filter((e) => e.enabled);
    const healthViews: HealthView[] = [
      ...enabled.map((e) =>
        this.healthView('translation', e.name, e.model ?? null, health.get(translationKey(e.name))),
      ),
      ...models
        .filter((m) => m.use !== 'translation' && m.enabled)
        .map((m) => this.healthView('ai', m.use, m.model, health.get(aiKey(m.use)))),
    ];

    const engineStates = enabled.map((e) => statusOf(health.get(translationKey(e.name))));
    const translation: CheckStatus =
      enabled.length === 0
        ? 'missing'
        : engineStates.every((s) => s === 'ok')
          ? 'ok'
          : engineStates.includes('ok')
            ? 'warning'
            : engineStates.includes('failing')
              ? 'failing'
              : 'unknown';
    const modelItem = (id: CheckId, use: 'explanation' | 'annotation', essential: boolean): CheckItem => {
      const model = models.find((m) => m.use === use)!;
      const status: CheckStatus = model.enabled ? statusOf(health.get(aiKey(use))) : 'missing';
      return { id, essential, status, detail: { source: model.source, model: model.model } };
    };
    const publicHost = new URL(config.publicUrl).hostname;
    const items: CheckItem[] = [
      {
        id: 'translation',
        essential: true,
        status: translation,
        detail: {
          engines: enabled.map((e) => e.name).join(', '),
          working: engineStates.filter((s) => s === 'ok').length,
        },
      },
      modelItem('explanationModel', 'explanation', true),
      modelItem('annotationModel', 'annotation', false),
      {
        id: 'mail',
        essential: false,
        status: config.mail.smtpUrl ? 'ok' : 'warning',
        detail: { mode: config.mail.smtpUrl ? 'smtp' : 'outbox', activation: config.accounts.emailActivation },
      },
      ...(config.accounts.phoneRegistration
        ? [
            {
              id: 'sms' as const,
              essential: false,
              status: (config.sms.webhookUrl ? 'ok' : 'warning') as CheckStatus,
              detail: { mode: config.sms.webhookUrl ? 'webhook' : 'outbox' },
            },
          ]
        : []),
      {
        id: 'invites',
        essential: false,
        status: !config.accounts.requireInvite || usableInvites > 0 ? 'ok' : 'warning',
        detail: { required: config.accounts.requireInvite, usable: usableInvites },
      },
      {
        id: 'publicUrl',
        essential: false,
        status: LOCAL_HOSTS.has(publicHost) ? 'warning' : 'ok',
        detail: { url: config.publicUrl },
      },
      {
        // Uploads, images and (embedded) the database live here: a full disk stops them all.
        id: 'storage',
        essential: true,
        status: storageStatus(space, config.books.maxFileBytes),
        detail: {
          dataDir: path.resolve(config.dataDir),
          freeMb: space ? Math.floor(space.freeBytes / 1024 / 1024) : null,
          totalMb: space ? Math.floor(space.totalBytes / 1024 / 1024) : null,
        },
      },
    ];
    return {
      attention: items.some((i) => i.essential && (i.status === 'missing' || i.status === 'failing')),
      items,
      health: healthViews,
      probeMinutes: config.engineProbeMinutes,
    };
  }

  private healthView(kind: HealthView['kind'], name: string, model: string | null, row: HealthRow | undefined) {
    return {
      key: kind === 'translation' ? translationKey(name) : aiKey(name),
      kind,
      name,
      model,
      status: statusOf(row),
      lastSuccessAt: row?.lastSuccessAt?.toISOString() ?? null,
      lastFailureAt: row?.lastFailureAt?.toISOString() ?? null,
      lastError: row?.lastError ?? null,
      latencyMs: row?.latencyMs ?? null,
      checkedBy: row?.checkedBy ?? null,
    };
  }

  /**
   * Probes every enabled engine and AI model once. Unless forced, an engine that worked in real use
   * within the probe interval is left alone: use already proved it, and a probe would only cost.
   */
  async probe(options: { force?: boolean; freshMs?: number } = {}): Promise<void> {
    const windowMs = options.freshMs ?? this.d.config.engineProbeMinutes * 60_000;
    const known = await this.d.health.all();
    const recent = (key: string) => {
      const at = known.get(key)?.lastSuccessAt;
      return !options.force && at !== null && at !== undefined && Date.now() - +at < windowMs;
    };
    const jobs: Promise<void>[] = [];
    const run = (key: string, secret: string | undefined, probe: () => Promise<Outcome>) => {
      if (recent(key)) return;
      jobs.push(probe().then((outcome) => this.d.health.record(key, outcome, 'probe', [secret])));
    };
    for (const engine of (await this.d.engines.load()).filter((e) => e.enabled)) {
      run(translationKey(engine.name), engine.apiKey, () => probeTranslationEngine(engine));
    }
    for (const use of ['explanation', 'annotation'] as const) {
      const { settings } = await this.d.aiModels.settingsOf(use);
      if (settings) run(aiKey(use), settings.apiKey, () => probeLlm(settings));
    }
    await Promise.all(jobs);
    await this.d.health.flush();
  }
}
