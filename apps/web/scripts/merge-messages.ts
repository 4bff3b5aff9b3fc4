/**
 * Merges new interface messages into the 7 locale files in one quick read-modify-write, so that
 * several people adding strings at the same time do not overwrite each other's work.
 *
 *   node apps/web/scripts/merge-messages.ts messages.json
 *
 * messages.json: {"zh": {"reader": {"title": "…"}}, "en": {...}, "de": {...}, ...} — all 7 languages,
 * the same keys in each. Existing keys keep their text unless --replace is given.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

type Tree = { [key: string]: string | Tree };
const LANGUAGES = ['zh', 'en', 'de', 'es', 'fr', 'jp', 'ko'];
const localesDir = path.resolve(import.meta.dirname, '../src/i18n/locales');

const args = process.argv.slice(2);
const replace = args.includes('--replace');
const input = args.find((a) => !a.startsWith('--'));
if (!input) {
  console.error('usage: node apps/web/scripts/merge-messages.ts messages.json [--replace]');
  process.exit(2);
}
const messages = JSON.parse(readFileSync(input, 'utf8')) as Record<string, Tree>;

const keysOf = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [prefix + k] : keysOf(v, `${prefix}${k}.`)));
const reference = keysOf(messages.en ?? {})
  .sort()
  .join('\n');
for (const language of LANGUAGES) {
  if (!messages[language]) throw new Error(`messages for ${language} are missing`);
  if (keysOf(messages[language]).sort().join('\n') !== reference)
    throw new Error(`${language} does not have the same keys as en`);
}

function merge(target: Tree, source: Tree): void {
  for (const [key, value] of Object.entries(source)) {
    const current = target[key];
    if (typeof value === 'string') {
      if (typeof current === 'object') throw new Error(`${key} is a group in the locale file, not a message`);
      if (current === undefined || replace) target[key] = value;
    } else {
      if (typeof current === 'string') throw new Error(`${key} is a message in the locale file, not a group`);
      if (current === undefined) target[key] = {};
      merge(target[key] as Tree, value);
    }
  }
}

for (const language of LANGUAGES) {
  const file = path.join(localesDir, `${language}.json`);
  const tree = JSON.parse(readFileSync(file, 'utf8')) as Tree;
  merge(tree, messages[language]!);
  writeFileSync(`${file}.tmp`, JSON.stringify(tree, null, 2) + '\n');
  renameSync(`${file}.tmp`, file);
}
console.log(`merged ${reference ? reference.split('\n').length : 0} message(s) into ${LANGUAGES.length} locale files`);
