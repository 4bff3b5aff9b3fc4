import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '@yidu/shared/audit';
import { ERROR_KEYS } from '@yidu/shared/errors';
import { UI_LANGUAGES } from '@yidu/shared/languages';
import { UI_LANGUAGE_LIST, matchUiLanguage, readingLanguageOptions } from './languages.ts';

const LOCALES_DIR = join(import.meta.dirname, 'locales');
const SRC_DIR = join(import.meta.dirname, '..');

type Messages = { [key: string]: string | Messages };

function flatten(messages: Messages, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(messages)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const locales = Object.fromEntries(
  UI_LANGUAGES.map((lng) => [lng, flatten(JSON.parse(readFileSync(join(LOCALES_DIR, `${lng}.json`), 'utf8')))]),
) as Record<string, Map<string, string>>;

const placeholders = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('locale files', () => {
  it('exist for exactly the 7 interface languages, and the language list matches', () => {
    const files = readdirSync(LOCALES_DIR).map((f) => f.replace(/\.json$/, ''));
    expect(files.sort()).toEqual([...UI_LANGUAGES].sort());
    expect(UI_LANGUAGE_LIST.map((l) => l.code).sort()).toEqual([...UI_LANGUAGES].sort());
  });

  it('have every key that any other language has, never empty, with the same placeholders', () => {
    const allKeys = new Set(Object.values(locales).flatMap((m) => [...m.keys()]));
    const problems: string[] = [];
    for (const [lng, messages] of Object.entries(locales)) {
      for (const key of allKeys) {
        const text = messages.get(key);
        if (text === undefined) problems.push(`${lng}: missing ${key}`);
        else if (!text.trim()) problems.push(`${lng}: empty ${key}`);
        else if (placeholders(text).join() !== placeholders(locales.en!.get(key) ?? '').join()) {
          problems.push(`${lng}: placeholders of ${key} differ from en`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('translate every server error key of the ERRORS catalogue, plus the client-side ones', () => {
    const missing = Object.entries(locales).flatMap(([lng, messages]) =>
      [...ERROR_KEYS, 'network', 'timeout', 'unknown']
        .filter((key) => !messages.has(`errors.${key}`))
        .map((k) => `${lng}: errors.${k}`),
    );
    expect(missing).toEqual([]);
  });

  it('name every action of the audit log (never its raw key)', () => {
    const missing = Object.entries(locales).flatMap(([lng, messages]) =>
      AUDIT_ACTIONS.filter((action) => !messages.has(`admin.audit.actions.${action}`)).map((a) => `${lng}: ${a}`),
    );
    expect(missing).toEqual([]);
  });

  it("contain every literal key used with t('...') in the source", () => {
    const used = new Map<string, string>();
    for (const file of sourceFiles(SRC_DIR)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\bt\(\s*['"]([\w.-]+)['"]/g)) used.set(match[1]!, relative(SRC_DIR, file));
    }
    expect(used.size).toBeGreaterThan(50);
    // A plural is kept under its forms (key_one, key_other...), as i18next looks it up with a count.
    const missing = [...used]
      .filter(([key]) => !locales.en!.has(key) && !locales.en!.has(`${key}_other`))
      .map(([key, file]) => `${key} (${file})`);
    expect(missing).toEqual([]);
  });

  it('speak to the reader in one register in Chinese: 你, never 您 (and the mails do too)', () => {
    const formal = [...locales.zh!].filter(([, text]) => text.includes('您')).map(([key]) => key);
    expect(formal).toEqual([]);
    expect([...locales.zh!.values()].filter((text) => text.includes('你')).length).toBeGreaterThan(20);
    const mails = readFileSync(join(SRC_DIR, '../../server/src/engines/mail/templates.ts'), 'utf8');
    expect(mails).not.toContain('您');
  });

  it('use the Chinese app name in zh and Yidu elsewhere', () => {
    expect(locales.zh!.get('app.name')).toBe('译读');
    for (const lng of UI_LANGUAGES.filter((l) => l !== 'zh')) expect(locales[lng]!.get('app.name')).toBe('Yidu');
  });
});

describe('languages', () => {
  it('maps browser languages to interface languages', () => {
    expect(matchUiLanguage('zh-CN')).toBe('zh');
    expect(matchUiLanguage('ja-JP')).toBe('jp');
    expect(matchUiLanguage('de-AT')).toBe('de');
    expect(matchUiLanguage('pt-BR')).toBeUndefined();
  });

  it('names the 26 reading languages in the interface language, keeping the English name as value', () => {
    const zh = readingLanguageOptions('zh');
    expect(zh).toHaveLength(26);
    expect(zh.find((l) => l.value === 'German')?.label).toBe('德语');
    expect(zh.find((l) => l.value === 'Japanese')?.label).toBe('日语');
    const en = readingLanguageOptions('en');
    expect(en.find((l) => l.value === 'Traditional Chinese')?.label).toBe('Traditional Chinese');
    expect(new Set(en.map((l) => l.label)).size).toBe(26);
  });
});
