/**
 * List numbers of DOCX paragraphs (word/numbering.xml): Word computes "3.2.", "a)" or "第一章" at
 * display time, so without this a numbered contract or manual loses its clause numbers. Counters
 * follow Word's rules closely enough for reading: one set per abstract list, a level restarts when a
 * higher one advances, `startOverride` restarts a list instance. Bullets give no label (the block
 * type already says list item).
 */
import type { XmlHandler } from '../xml-stream.ts';

interface Level {
  start: number;
  format: string;
  text: string;
  legal: boolean;
}

interface NumberingInstance {
  abstractId: string;
  /** Level → start value that restarts the list the first time this instance is used. */
  overrides: Map<number, number>;
}

const CJK_DIGITS = '〇一二三四五六七八九';

function cjkNumber(n: number): string {
  if (n <= 0 || n >= 100) return String(n);
  if (n < 10) return CJK_DIGITS[n]!;
  const tens = Math.floor(n / 10);
  const units = n % 10;
  return `${tens > 1 ? CJK_DIGITS[tens] : ''}十${units ? CJK_DIGITS[units] : ''}`;
}

function roman(n: number): string {
  if (n <= 0 || n >= 4000) return String(n);
  const table: [number, string][] = [
    [1000, 'm'],
    [900, 'cm'],
    [500, 'd'],
    [400, 'cd'],
    [100, 'c'],
    [90, 'xc'],
    [50, 'l'],
    [40, 'xl'],
    [10, 'x'],
    [9, 'ix'],
    [5, 'v'],
    [4, 'iv'],
    [1, 'i'],
  ];
  let out = '';
  let rest = n;
  for (const [value, digits] of table) {
    while (rest >= value) {
      out += digits;
      rest -= value;
    }
  }
  return out;
}

function letters(n: number): string {
  if (n <= 0) return String(n);
  // Word repeats the letter past z: a..z, aa..zz, aaa...
  const letter = String.fromCharCode(97 + ((n - 1) % 26));
  return letter.repeat(Math.floor((n - 1) / 26) + 1);
}

export function formatNumber(n: number, format: string): string {
  switch (format) {
    case 'decimalZero':
      return n < 10 ? `0${n}` : String(n);
    case 'lowerLetter':
      return letters(n);
    case 'upperLetter':
      return letters(n).toUpperCase();
    case 'lowerRoman':
      return roman(n);
    case 'upperRoman':
      return roman(n).toUpperCase();
    case 'chineseCounting':
    case 'chineseCountingThousand':
    case 'ideographTraditional':
    case 'japaneseCounting':
    case 'taiwaneseCounting':
    case 'taiwaneseCountingThousand':
    case 'ideographDigital':
      return cjkNumber(n);
    default:
      return String(n);
  }
}

export class DocxNumbering {
  private readonly abstracts = new Map<string, Map<number, Level>>();
  private readonly instances = new Map<string, NumberingInstance>();
  private readonly counters = new Map<string, (number | undefined)[]>();
  private readonly used = new Set<string>();

  /** A handler for the streaming tokenizer that reads word/numbering.xml. */
  handler(): XmlHandler {
    let abstract: Map<number, Level> | undefined;
    let level: Level | undefined;
    let instance: NumberingInstance | undefined;
    let overrideLevel: number | undefined;
    let skip = 0;
    return {
      wantsText: () => false,
      text: () => undefined,
      open: (name, tag, selfClosing) => {
        if (skip) {
          if (!selfClosing) skip++;
          return;
        }
        switch (name) {
          case 'w:abstractNum': {
            abstract = new Map();
            this.abstracts.set(tag.attr('w:abstractNumId') ?? '', abstract);
            break;
          }
          case 'w:lvl': {
            const ilvl = Number(tag.attr('w:ilvl') ?? 0);
            level = { start: 1, format: 'decimal', text: '', legal: false };
            // A w:lvl inside a w:lvlOverride redefines a level for one instance: rare, ignored.
            if (abstract && !instance) abstract.set(ilvl, level);
            break;
          }
          case 'w:start':
            if (level) level.start = Number(tag.attr('w:val') ?? 1) || 0;
            break;
          case 'w:numFmt':
            if (level) level.format = tag.attr('w:val') ?? 'decimal';
            break;
          case 'w:lvlText':
            if (level) level.text = tag.attr('w:val') ?? '';
            break;
          case 'w:isLgl':
            if (level) level.legal = true;
            break;
          case 'w:num':
            instance = { abstractId: '', overrides: new Map() };
            this.instances.set(tag.attr('w:numId') ?? '', instance);
            break;
          case 'w:abstractNumId':
            if (instance) instance.abstractId = tag.attr('w:val') ?? '';
            break;
          case 'w:lvlOverride':
            overrideLevel = Number(tag.attr('w:ilvl') ?? 0);
            break;
          case 'w:startOverride':
            if (instance && overrideLevel !== undefined) {
              instance.overrides.set(overrideLevel, Number(tag.attr('w:val') ?? 1) || 0);
            }
            break;
          case 'w:rPr':
          case 'w:pPr':
            // Formatting of the number itself.
            if (!tag.skip()) skip = 1;
            break;
        }
      },
      close: (name) => {
        if (skip) {
          skip--;
          return;
        }
        if (name === 'w:abstractNum') abstract = undefined;
        else if (name === 'w:lvl') level = undefined;
        else if (name === 'w:num') instance = undefined;
        else if (name === 'w:lvlOverride') overrideLevel = undefined;
      },
    };
  }

  /**
   * Advances the list of a numbered paragraph and returns its label ("2.1.", "b)"), or undefined for
   * bullets, unnumbered levels and unknown lists. Call once per numbered paragraph, in document order.
   */
  next(numId: string, ilvl: number): string | undefined {
    const instance = this.instances.get(numId);
    const levels = instance && this.abstracts.get(instance.abstractId);
    if (!instance || !levels) return undefined;
    const key = instance.abstractId;
    let counters = this.counters.get(key);
    if (!counters) {
      counters = [];
      this.counters.set(key, counters);
    }
    if (!this.used.has(numId)) {
      this.used.add(numId);
      for (const [l, start] of instance.overrides) {
        counters[l] = start - 1;
        counters.length = l + 1;
      }
    }
    const level = Math.max(0, Math.min(8, ilvl));
    const own = levels.get(level);
    counters[level] = (counters[level] ?? (own?.start ?? 1) - 1) + 1;
    counters.length = level + 1;
    if (!own || own.format === 'bullet' || own.format === 'none' || !own.text) return undefined;
    const label = own.text.replace(/%([1-9])/g, (_m, d: string) => {
      const l = Number(d) - 1;
      const def = levels.get(l);
      const value = counters[l] ?? def?.start ?? 1;
      return formatNumber(value, own.legal ? 'decimal' : (def?.format ?? 'decimal'));
    });
    return label.trim() || undefined;
  }
}
