import { readFileSync } from 'node:fs';
import path from 'node:path';

type Tree = { [key: string]: string | Tree };

/** The web app's own wording, so that journeys click what a user of that language reads. */
export function wording(language: string): (key: string, values?: Record<string, string>) => string {
  const tree = JSON.parse(
    readFileSync(path.resolve(import.meta.dirname, `../src/i18n/locales/${language}.json`), 'utf8'),
  ) as Tree;
  return (key, values = {}) => {
    let node: string | Tree | undefined = tree;
    for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
    if (typeof node !== 'string') throw new Error(`missing ${language} wording for ${key}`);
    return node.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => values[name] ?? '');
  };
}

/** Ant Design puts a space between the two characters of a two-character CJK button ("注 册"). */
export function buttonName(text: string): RegExp {
  const escaped = [...text].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  // Anchored at the end only: an icon may come first in the accessible name ("logout Log out").
  return new RegExp(`(^|\\s)${escaped.join('\\s*')}\\s*$`);
}
