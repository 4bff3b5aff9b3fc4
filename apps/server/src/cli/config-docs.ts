/**
 * Writes the README's configuration table from the configuration schema (apps/server/src/config/env.ts):
 *
 *   npm run docs:config            rewrite README.md
 *   npm run docs:config -- --check exit 1 when README.md and the schema differ
 */
import { readFile, writeFile } from 'node:fs/promises';
import { README, renderedReadme } from '../config/env-docs.ts';

const current = await readFile(README, 'utf8');
const expected = await renderedReadme(current);
if (process.argv.includes('--check')) {
  if (current !== expected) {
    console.error("README.md's configuration table differs from the schema: run `npm run docs:config`.");
    process.exit(1);
  }
  console.log('README.md matches the configuration schema.');
} else if (current !== expected) {
  await writeFile(README, expected);
  console.log('README.md: configuration table written.');
} else {
  console.log('README.md is up to date.');
}
