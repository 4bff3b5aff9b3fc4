import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { configRows, README, renderedReadme } from './env-docs.ts';
import { EnvSchema } from './env.ts';

/** The README's configuration table is made from the schema; this fails when someone changes one and not the other. */
describe('the configuration documentation', () => {
  it('documents every variable the schema reads', () => {
    expect(configRows().map((r) => r.name)).toEqual(Object.keys(EnvSchema.shape));
    for (const row of configRows()) expect(row.description.length, row.name).toBeGreaterThan(5);
  });

  it('is what README.md says (run `npm run docs:config` after changing the schema)', async () => {
    const readme = await readFile(README, 'utf8');
    expect(readme).toBe(await renderedReadme(readme));
    for (const name of ['TRANSLATION_ENGINES', 'LIBRETRANSLATE_URL', 'LLM_MODEL', 'UPLOAD_MAX_MB', 'UPLOADS_PER_DAY']) {
      expect(readme).toContain(`\`${name}\``);
    }
  });
});
