import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { EnvSchema } from './env.ts';

/** The README whose configuration table is generated from the schema. */
export const README = path.resolve(import.meta.dirname, '../../../../README.md');
const START = '<!-- config-table:start (generated from apps/server/src/config/env.ts by `npm run docs:config`) -->';
const END = '<!-- config-table:end -->';

interface Documented {
  description?: string;
  shownDefault?: string;
}

/** The default a schema would fill in, when it is a plain value. */
function plainDefault(schema: { def?: { type?: string; defaultValue?: unknown } }): string | undefined {
  const def = schema.def;
  if (def?.type !== 'default') return undefined;
  const value = typeof def.defaultValue === 'function' ? (def.defaultValue as () => unknown)() : def.defaultValue;
  return `\`${String(value)}\``;
}

/** One row per variable, in schema order. Throws when a variable has no description. */
export function configRows(): { name: string; shown: string; description: string }[] {
  return Object.entries(EnvSchema.shape).map(([name, schema]) => {
    const meta = (schema.meta() ?? {}) as Documented;
    if (!meta.description) throw new Error(`${name} has no description in apps/server/src/config/env.ts (doc())`);
    return { name, shown: meta.shownDefault ?? plainDefault(schema) ?? '_(unset)_', description: meta.description };
  });
}

/** The markdown table (unpadded: the formatter aligns it). */
export function configTable(): string {
  const escape = (text: string) => text.replaceAll('|', '\\|');
  return [
    '| Variable | Default | What it does |',
    '| --- | --- | --- |',
    ...configRows().map((r) => `| \`${r.name}\` | ${escape(r.shown)} | ${escape(r.description)} |`),
  ].join('\n');
}

/** The README as it should be: its table replaced by the generated one, formatted as the repository formats it. */
export async function renderedReadme(current?: string): Promise<string> {
  const text = current ?? (await readFile(README, 'utf8'));
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start === -1 || end < start) throw new Error(`README.md lacks the markers ${START} … ${END}`);
  const replaced = `${text.slice(0, start + START.length)}\n\n${configTable()}\n\n${text.slice(end)}`;
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(README)) ?? {};
  return prettier.format(replaced, { ...options, filepath: README });
}
