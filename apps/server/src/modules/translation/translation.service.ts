import { createHash } from 'node:crypto';
import type { LanguageCode } from '@yidu/shared';
import { sql } from 'kysely';
import sanitizeHtml from 'sanitize-html';
import type { Db } from '../../db/client.ts';
import { createEngine, type EngineSettings } from '../../engines/translation/registry.ts';
import { TranslationChain } from '../../engines/translation/resilient.ts';
import type { EngineName, TranslationEngine } from '../../engines/translation/types.ts';
import { EngineError } from '../../engines/translation/errors.ts';
import { fail } from '../../http/errors.ts';
import { memoryHits, translatedSegments, translationFailures } from '../../lib/metrics.ts';
import type { Logger } from '../../lib/logger.ts';

export interface Translated {
  translation: string;
  engine: string;
  model: string;
  fromMemory: boolean;
}

/** Same text, same key: whitespace differences do not make a new memory entry. */
export const normalise = (text: string): string => text.replace(/\s+/g, ' ').trim();
export const sourceHash = (text: string): string => createHash('sha256').update(normalise(text)).digest('hex');

/** What a translation may contain: the inline markup the parsers produce, nothing an engine could add. */
export function cleanTranslation(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ['em', 'strong', 'i', 'b', 'sup', 'sub', 'ruby', 'rt', 'rp', 'a', 'br', 'span'],
    allowedAttributes: { a: ['href'] },
    allowedSchemes: [],
    allowedSchemesAppliedToAttributes: ['href'],
    allowProtocolRelative: false,
    exclusiveFilter: (frame) => frame.tag === 'a' && !(frame.attribs.href ?? '').startsWith('#'),
  }).trim();
}

/**
 * Translation with a memory shared by all users: every (normalised text, source, target, engine,
 * model, glossary version) is translated once and reused, whoever asks for it next.
 */
export class TranslationService {
  private readonly db: Db;
  private readonly logger: Logger;
  private engines: TranslationEngine[] = [];
  private unwrapped = new Map<EngineName, TranslationEngine>();
  private readonly chains = new Map<string, TranslationChain>();

  private readonly observe: ((engine: TranslationEngine, settings: EngineSettings) => TranslationEngine) | undefined;

  /** `observe` wraps each engine built (the set-up checklist measures every request with it). */
  constructor(deps: {
    db: Db;
    logger: Logger;
    settings: EngineSettings[];
    observe?: (engine: TranslationEngine, settings: EngineSettings) => TranslationEngine;
  }) {
    this.db = deps.db;
    this.logger = deps.logger;
    this.observe = deps.observe;
    this.setSettings(deps.settings);
  }

  /** Rebuilds the engines (at start and whenever an admin saves the engine settings). */
  setSettings(settings: EngineSettings[]): void {
    const engines: TranslationEngine[] = [];
    const unwrapped = new Map<EngineName, TranslationEngine>();
    for (const s of settings.filter((e) => e.enabled)) {
      try {
        const engine = createEngine(s);
        unwrapped.set(engine.name, engine);
        engines.push(this.observe ? this.observe(engine, s) : engine);
      } catch (error) {
        this.logger.error({ engine: s.name, err: error }, 'translation engine left out: its settings are incomplete');
      }
    }
    this.engines = engines;
    this.unwrapped = unwrapped;
    this.chains.clear();
  }

  /** The engines users may choose from, in the admin's order. */
  enabledEngines(): EngineName[] {
    return this.engines.map((e) => e.name);
  }

  /**
   * The enabled engine of this name as created, without the health measurement around it: the
   * dictionary lookups use Microsoft's own endpoints (see MicrosoftDictionary).
   */
  enabledEngine(name: EngineName): TranslationEngine | undefined {
    return this.unwrapped.get(name);
  }

  /** How many requests the first engine of a chain may have in flight (for splitting a page into batches). */
  concurrencyFor(preferred?: string | null): number {
    return this.chainFor(preferred).engines[0]?.limits?.concurrency ?? 1;
  }

  /** The engines in fallback order, with the reader's preferred engine first when it is enabled. */
  chainFor(preferred?: string | null): TranslationChain {
    const key = preferred ?? '';
    let chain = this.chains.get(key);
    if (!chain) {
      const first = this.engines.filter((e) => e.name === preferred);
      chain = new TranslationChain([...first, ...this.engines.filter((e) => e.name !== preferred)], {
        logger: this.logger,
      });
      this.chains.set(key, chain);
    }
    return chain;
  }

  /** Memory hits for the texts, preferring the engines in the chain's order. */
  async fromMemory(
    texts: string[],
    from: string,
    to: string,
    glossaryVersion = 0,
    preferred?: string | null,
  ): Promise<Map<string, Translated>> {
    const hashes = [...new Set(texts.map(sourceHash))];
    if (hashes.length === 0) return new Map();
    const order = this.chainFor(preferred).engines.map((e) => e.name);
    const rows = await sql<{ source_hash: string; translation: string; engine: string; model: string }>`
      SELECT DISTINCT ON (source_hash) source_hash, translation, engine, model
      FROM translation_memory
      WHERE source_hash = ANY(${hashes}) AND source_lang = ${from} AND target_lang = ${to} AND glossary_version = ${glossaryVersion}
      ORDER BY source_hash, coalesce(array_position(${order}::text[], engine), 999), id`.execute(this.db);
    return new Map(
      rows.rows.map((r) => [
        r.source_hash,
        { translation: r.translation, engine: r.engine, model: r.model, fromMemory: true },
      ]),
    );
  }

  async remember(
    entries: { source: string; translation: string; engine: string; model: string }[],
    from: string,
    to: string,
    glossaryVersion = 0,
  ): Promise<void> {
    if (entries.length === 0) return;
    await this.db
      .insertInto('translation_memory')
      .values(
        entries.map((e) => ({
          source_hash: sourceHash(e.source),
          source_lang: from,
          target_lang: to,
          engine: e.engine,
          model: e.model,
          glossary_version: glossaryVersion,
          translation: e.translation,
          source_chars: e.source.length,
        })),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  /** Translates through the memory first, then the engines; new results go into the memory. */
  async translate(
    texts: string[],
    from: string,
    to: LanguageCode,
    options: {
      glossaryVersion?: number;
      signal?: AbortSignal;
      preferred?: string | null;
      glossary?: { source: string; target: string }[];
    } = {},
  ): Promise<Translated[]> {
    const glossaryVersion = options.glossaryVersion ?? 0;
    const memory = await this.fromMemory(texts, from, to, glossaryVersion, options.preferred);
    const results: (Translated | undefined)[] = texts.map((t) => memory.get(sourceHash(t)));
    const missing = texts.map((t, i) => ({ t, i })).filter(({ i }) => results[i] === undefined);
    if (texts.length > missing.length) memoryHits({}, texts.length - missing.length);
    if (missing.length > 0) {
      const output = await this.chainFor(options.preferred)
        .translate({
          texts: missing.map((m) => m.t),
          from,
          to,
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.glossary?.length ? { glossary: options.glossary } : {}),
        })
        .catch((error: unknown) => {
          translationFailures({ kind: error instanceof EngineError ? error.kind : 'other' });
          throw error;
        });
      for (const source of output.sources) translatedSegments({ engine: source.engine });
      const fresh = missing.map((m, k) => ({
        source: m.t,
        translation: cleanTranslation(output.texts[k] ?? ''),
        engine: output.sources[k]?.engine ?? output.engine,
        model: output.sources[k]?.model ?? output.model,
      }));
      await this.remember(
        fresh.filter((f) => f.translation !== ''),
        from,
        to,
        glossaryVersion,
      );
      fresh.forEach(
        (f, k) =>
          (results[missing[k]!.i] = {
            translation: f.translation,
            engine: f.engine,
            model: f.model,
            fromMemory: false,
          }),
      );
    }
    return results as Translated[];
  }

  /** A book title (plain text); engine failures become translationUnavailable. */
  async translateTitle(title: string, from: string, to: string, preferred?: string | null): Promise<string> {
    try {
      const [result] = await this.translate([escapeText(title)], from, to as LanguageCode, {
        preferred,
      });
      return decodeEntities(sanitizeHtml(result!.translation, { allowedTags: [], allowedAttributes: {} }));
    } catch (error) {
      if (error instanceof EngineError) {
        this.logger.warn({ engine: error.engine, kind: error.kind, err: error.message }, 'title translation failed');
        throw fail('translationUnavailable', { engine: error.engine, reason: error.kind });
      }
      throw error;
    }
  }
}

export const escapeText = (text: string): string =>
  text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
const decodeEntities = (text: string): string =>
  text.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!,
  );
