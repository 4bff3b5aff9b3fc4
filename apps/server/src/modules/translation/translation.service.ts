import { createHash } from 'node:crypto';
import type { LanguageCode } from '@yidu/shared';
import { sql } from 'kysely';
import sanitizeHtml from 'sanitize-html';
import type { Db } from '../../db/client.ts';
import { createEngine, type EngineSettings } from '../../engines/translation/registry.ts';
import { TranslationChain } from '../../engines/translation/resilient.ts';
import type { EngineName, GlossaryTerm, TranslationEngine } from '../../engines/translation/types.ts';
import { glossaryKey, termsIn } from '../../engines/translation/glossary-terms.ts';
import { EngineError } from '../../engines/translation/errors.ts';
import { translateByLines } from '../../engines/translation/lines.ts';
import { fail } from '../../http/errors.ts';
import { memoryHits, translatedSegments, translationFailures } from '../../lib/metrics.ts';
import type { Logger } from '../../lib/logger.ts';

export interface Translated {
  translation: string;
  engine: string;
  model: string;
  fromMemory: boolean;
  /** The glossary entries the translation was made with (glossaryKey of those occurring in the text). */
  glossaryKey: string;
}

export interface TranslateOptions {
  signal?: AbortSignal;
  preferred?: string | null;
  /** The book's glossary for the target language: each text is translated and remembered with the entries it holds. */
  glossary?: GlossaryTerm[];
  /** What the chapter told so far (LLM engines only). */
  summary?: string;
}

/** The memory key of a text's glossary: the entries occurring in it. */
export const glossaryKeyOf = (text: string, glossary: readonly GlossaryTerm[] | undefined) =>
  glossaryKey(termsIn(text, glossary));

/**
 * Same text, same key: differences of spacing do not make a new memory entry, line breaks do (the
 * lines of a poem are not a paragraph of prose, and are translated line by line).
 */
export const normalise = (text: string): string =>
  text
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .trim();
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
 * model, glossary entries occurring in the text) is translated once and reused, whoever asks for it
 * next. A translation a reader chose over another (a report of a wrong one) is served first.
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

  /** Memory hits for the texts, preferring a chosen translation, then the engines in the chain's order. */
  async fromMemory(
    texts: string[],
    from: string,
    to: string,
    options: Pick<TranslateOptions, 'preferred' | 'glossary'> = {},
  ): Promise<Map<string, Translated>> {
    if (texts.length === 0) return new Map();
    const wanted = new Map(texts.map((t) => [sourceHash(t), glossaryKeyOf(t, options.glossary)]));
    const order = this.chainFor(options.preferred).engines.map((e) => e.name);
    const rows = await sql<{
      source_hash: string;
      glossary_key: string;
      translation: string;
      engine: string;
      model: string;
    }>`
      SELECT DISTINCT ON (m.source_hash) m.source_hash, m.glossary_key, m.translation, m.engine, m.model
      FROM translation_memory m
      JOIN unnest(${[...wanted.keys()]}::text[], ${[...wanted.values()]}::text[]) AS w(source_hash, glossary_key)
        ON m.source_hash = w.source_hash AND m.glossary_key = w.glossary_key
      WHERE m.source_lang = ${from} AND m.target_lang = ${to}
      ORDER BY m.source_hash, m.chosen_at DESC NULLS LAST, coalesce(array_position(${order}::text[], m.engine), 999), m.id`.execute(
      this.db,
    );
    return new Map(
      rows.rows.map((r) => [
        r.source_hash,
        {
          translation: r.translation,
          engine: r.engine,
          model: r.model,
          fromMemory: true,
          glossaryKey: r.glossary_key,
        },
      ]),
    );
  }

  async remember(
    entries: { source: string; translation: string; engine: string; model: string; glossaryKey: string }[],
    from: string,
    to: string,
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
          glossary_key: e.glossaryKey,
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
    options: TranslateOptions = {},
  ): Promise<Translated[]> {
    const memory = await this.fromMemory(texts, from, to, options);
    const results: (Translated | undefined)[] = texts.map((t) => memory.get(sourceHash(t)));
    const missing = texts.map((t, i) => ({ t, i })).filter(({ i }) => results[i] === undefined);
    if (texts.length > missing.length) memoryHits({}, texts.length - missing.length);
    if (missing.length > 0) {
      // A text with line breaks goes line by line (lines.ts): every engine gives back its lines.
      const output = await translateByLines(this.chainFor(options.preferred), {
        texts: missing.map((m) => m.t),
        from,
        to,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.glossary?.length ? { glossary: options.glossary } : {}),
        ...(options.summary ? { summary: options.summary } : {}),
      }).catch((error: unknown) => {
        translationFailures({ kind: error instanceof EngineError ? error.kind : 'other' });
        throw error;
      });
      for (const source of output.sources) translatedSegments({ engine: source.engine });
      const fresh = missing.map((m, k) => ({
        source: m.t,
        translation: cleanTranslation(output.texts[k] ?? ''),
        engine: output.sources[k]?.engine ?? output.engine,
        model: output.sources[k]?.model ?? output.model,
        glossaryKey: glossaryKeyOf(m.t, options.glossary),
      }));
      await this.remember(
        fresh.filter((f) => f.translation !== ''),
        from,
        to,
      );
      fresh.forEach(
        (f, k) =>
          (results[missing[k]!.i] = {
            translation: f.translation,
            engine: f.engine,
            model: f.model,
            fromMemory: false,
            glossaryKey: f.glossaryKey,
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
