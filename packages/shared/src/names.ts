/**
 * Names people see (usernames shown on shares, accounts typed to log in) must not let one person pass
 * for another. What UTS #39 (Unicode security mechanisms) describes, within reach of a regular
 * expression:
 * - one form per name: NFKC (full-width `ａｄｍｉｎ` is `admin`), trimmed, runs of spaces made one;
 * - compared case-insensitively (`nameKey`): `Admin` and `admin` are the same name;
 * - no invisible or direction-changing characters (zero-width spaces and joiners, the bidirectional
 *   overrides that show `\u202Enimda` as "admin"), no control or private-use characters;
 * - no mixing of scripts beyond UTS #39's "highly restrictive" level: one script, or Latin with the
 *   Han, kana, Hangul or Bopomofo writing of Chinese, Japanese and Korean — so the Cyrillic `а` of
 *   `аdmin` is refused, while `李Lee` and `ゆうきYuki` are fine;
 * - a few names reserved for the operators (`admin`, `root`, `yidu`, 管理员…), also when separated
 *   by dots, dashes or spaces.
 */

/** Invisible, format and control characters; private use and unassigned code points. */
const INVISIBLE = /[\p{Cf}\p{Cc}\p{Co}\p{Cn}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0\u2800]/u;
/** Any space other than the plain one (no-break, ideographic, en/em spaces…). */
const ODD_SPACE = /[^\S ]/u;

const SCRIPTS: Array<[name: string, pattern: RegExp]> = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Han', /\p{Script=Han}/u],
  ['Hiragana', /\p{Script=Hiragana}/u],
  ['Katakana', /\p{Script=Katakana}/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['Bopomofo', /\p{Script=Bopomofo}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
];
/** Letters of a script not listed above count as their own script, 'Other'. */
const LETTER = /[\p{L}\p{N}]/u;
const COMMON = /[\p{Script=Common}\p{Script=Inherited}]/u;

/** Script sets UTS #39 allows together besides a single script ("highly restrictive"). */
const CJK_SETS = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

/** Names only the operators may take (compared without case, spaces, dots, dashes or underscores). */
const RESERVED = new Set([
  'admin',
  'administrator',
  'root',
  'system',
  'sysadmin',
  'superuser',
  'support',
  'moderator',
  'official',
  'staff',
  'security',
  'yidu',
  '译读',
  '譯讀',
  '管理员',
  '管理員',
  '系统',
  '系統',
  '客服',
  '官方',
]);
const SEPARATORS = /[\s._\-·・]+/gu;

/** The stored form of a name: NFKC, trimmed, single spaces. */
export function normalizeName(name: string): string {
  return name.normalize('NFKC').trim().replace(/ {2,}/g, ' ');
}

/** The form two names are compared in: the stored form, case-folded. */
export function nameKey(name: string): string {
  return normalizeName(name).toLowerCase().normalize('NFKC');
}

function scriptsOf(name: string): Set<string> {
  const found = new Set<string>();
  for (const char of name) {
    if (COMMON.test(char) || !LETTER.test(char)) continue;
    found.add(SCRIPTS.find(([, pattern]) => pattern.test(char))?.[0] ?? 'Other');
  }
  return found;
}

export type NameProblem = 'invisibleCharacters' | 'mixedScripts' | 'reserved';

/**
 * What is wrong with a name (after normalizeName), or undefined. `allowReserved`: the operators
 * naming their own admin (ADMIN_ACCOUNT, the admin CLI).
 */
export function nameProblem(name: string, options: { allowReserved?: boolean } = {}): NameProblem | undefined {
  const normal = normalizeName(name);
  if (INVISIBLE.test(normal) || ODD_SPACE.test(normal)) return 'invisibleCharacters';
  const scripts = scriptsOf(normal);
  if (scripts.size > 1 && !CJK_SETS.some((set) => [...scripts].every((s) => set.has(s)))) return 'mixedScripts';
  if (!options.allowReserved && RESERVED.has(nameKey(normal).replace(SEPARATORS, ''))) return 'reserved';
  return undefined;
}
