/**
 * Every document of the second test set (../shared/wild, see its MANIFEST.md): real files of each
 * difficulty, parsed and checked against the reference text an independent tool made of them
 * (shared/tools/fidelity.mjs: recall ≥ 0.90, precision ≥ 0.85, garbage ≤ 1%), with the language the
 * manifest names; or the clear refusal it expects. Every document must pass.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { detectBookLanguage } from '../language/detect.ts';
import { hasOcrLanguage } from '../ocr/languages.ts';
import { disposeSharedOcrEngine } from '../ocr/tesseract.ts';
import { bookText } from './builder.ts';
import { ParseError, type ParseErrorKey } from './errors.ts';
import { parseBook } from './registry.ts';
import type { ParsedBook } from './types.ts';

const CORPUS = process.env.YIDU_CORPUS_DIR || path.resolve(import.meta.dirname, '../../../../..', '../shared/corpus');
const WILD = path.join(CORPUS, '../wild');
// The scorer lives beside the corpus (shared/tools), wherever the checkout is.
const { fidelity, passes } = (await import(pathToFileURL(path.join(CORPUS, '../tools/fidelity.mjs')).href)) as {
  fidelity: unknown;
  passes: unknown;
};

interface Fidelity {
  recall: number;
  precision: number;
  order: number;
  garbage: number;
}
const score = fidelity as (reference: string, got: string) => Fidelity;
const passing = passes as (result: Fidelity) => boolean;

interface Expectation {
  file: string;
  /**
   * read: the book's text against `<file>.ref.txt` when there is one, and its language.
   * refuse: one of `keys`.
   * ocrOrRefuse: either one of `keys`, or a book in `lang` with no garbage (OCR).
   */
  outcome: 'read' | 'refuse' | 'ocrOrRefuse';
  /** The language the text is in: one of the 26 reading-language codes, or an ISO code outside them. */
  lang?: string | string[];
  keys?: ParseErrorKey[];
  check?: (book: ParsedBook) => void;
}

const NO_TEXT: ParseErrorKey[] = ['textNotExtractable', 'noTextFound', 'ocrUnavailable'];

const EXPECTATIONS: Expectation[] = [
  // PDF
  { file: 'pdf/en-octave-manual-1158-pages-pdftex.pdf', outcome: 'read', lang: 'en' },
  { file: 'pdf/en-ieee-paper-two-column-tex-control-chars.pdf', outcome: 'read', lang: 'en' },
  { file: 'pdf/en-libreoffice-form-filled-fields.pdf', outcome: 'read', lang: 'en' },
  { file: 'pdf/en-journal-article-17-pages-3b2.pdf', outcome: 'read', lang: 'en' },
  { file: 'pdf/fr-transport-plan-65-pages-word.pdf', outcome: 'read', lang: 'fr' },
  {
    file: 'pdf/ru-form-font-without-unicode-latin-garbage.pdf',
    outcome: 'ocrOrRefuse',
    lang: 'ru',
    keys: NO_TEXT,
  },
  {
    file: 'pdf/ar-calligraphy-font-without-unicode.pdf',
    outcome: 'ocrOrRefuse',
    lang: 'ar',
    keys: NO_TEXT,
  },
  {
    file: 'pdf/cs-shifted-glyph-codes-non-unicode-cmap.pdf',
    outcome: 'ocrOrRefuse',
    lang: 'cs',
    keys: NO_TEXT,
  },
  {
    file: 'pdf/ar-arabic-cid-truetype-logical-order.pdf',
    outcome: 'read',
    lang: 'ar',
  },
  { file: 'pdf/he-hebrew-paragraphs-word.pdf', outcome: 'read', lang: 'he' },
  {
    file: 'pdf/jp-official-gazette-vertical-rc4-empty-password.pdf',
    outcome: 'read',
    lang: 'jp',
  },
  { file: 'pdf/jp-amc-manual-78-pages-dblatex.pdf', outcome: 'read', lang: 'jp' },
  { file: 'pdf/zh-quarterly-report-22-pages-wps.pdf', outcome: 'read', lang: 'zh' },
  { file: 'pdf/zh-scanned-pages-with-ocr-text-layer.pdf', outcome: 'read', lang: 'zh' },
  { file: 'pdf/en-aviation-table-rc4-empty-password.pdf', outcome: 'read', lang: 'en' },
  { file: 'pdf/encrypted-rc4-user-password.pdf', outcome: 'refuse', keys: ['fileEncrypted'] },
  { file: 'pdf/encrypted-aes256-r5-unicode-user-password.pdf', outcome: 'refuse', keys: ['fileEncrypted'] },
  {
    file: 'pdf/broken-xref-keyword-missing.pdf',
    outcome: 'read',
    lang: ['en', 'und'],
  },
  {
    file: 'pdf/broken-fuzzed-missing-pages-object.pdf',
    outcome: 'ocrOrRefuse',
    keys: ['fileCorrupted', 'noTextFound'],
  },
  {
    file: 'pdf/fr-scanned-page-image-only.pdf',
    outcome: 'ocrOrRefuse',
    lang: 'fr',
    keys: NO_TEXT,
  },
  { file: 'pdf/en-scanned-jbig2-four-rotations.pdf', outcome: 'ocrOrRefuse', lang: 'en', keys: NO_TEXT },
  {
    file: 'pdf/en-mixed-ja-fable-google-docs.pdf',
    outcome: 'read',
    lang: 'en',
  },

  // EPUB
  { file: 'epub/en-childrens-literature-epub3-long.epub', outcome: 'read', lang: 'en' },
  { file: 'epub/en-britannica-georgia-epub3-footnotes.epub', outcome: 'read', lang: 'en' },
  { file: 'epub/und-svg-in-spine-fixed-layout.epub', outcome: 'ocrOrRefuse', keys: NO_TEXT },
  { file: 'epub/fr-page-blanche-bitmaps-in-spine-image-only.epub', outcome: 'ocrOrRefuse', lang: 'fr', keys: NO_TEXT },
  { file: 'epub/jp-internal-links-kanji-ids.epub', outcome: 'read', lang: 'jp' },
  { file: 'epub/jp-lemon-kajii-epub2-ruby.epub', outcome: 'read', lang: 'jp' },
  {
    file: 'epub/la-liber-esther-epub2-english-boilerplate.epub',
    outcome: 'read',
    lang: 'la',
  },
  { file: 'epub/en-epub3-mathml-features.epub', outcome: 'read', lang: 'en' },
  { file: 'epub/es-arlequin-epub2-all-spine-nonlinear.epub', outcome: 'read', lang: 'es' },
  {
    file: 'epub/la-lorem-ipsum-epub2-bad-guide-metadata-fr.epub',
    outcome: 'read',
    lang: ['la', 'und'],
  },
  { file: 'epub/en-adobe-adept-encrypted-content.epub', outcome: 'refuse', keys: ['fileDrmProtected'] },
  { file: 'epub/zh-debian-edu-manual-nested-root-folder.epub', outcome: 'read', lang: 'zh' },

  // DOC
  {
    file: 'doc/ru-word6-setup-text-cp1251.doc',
    outcome: 'read',
    lang: 'ru',
  },
  { file: 'doc/en-word6-resume.doc', outcome: 'read', lang: 'en' },
  { file: 'doc/fr-word6-fast-saved-fax-form.doc', outcome: 'read', lang: 'fr' },
  {
    file: 'doc/en-word95-fast-saved-fax.doc',
    outcome: 'read',
    check: (book) => expect(bookText(book).length).toBeGreaterThan(100),
  },
  { file: 'doc/bg-travel-club-word97-fast-saved.doc', outcome: 'read', lang: 'bg' },
  { file: 'doc/ru-jokes-latin-lookalike-letters.doc', outcome: 'read', lang: 'ru' },
  { file: 'doc/en-iraq-dossier-2003-word97.doc', outcome: 'read', lang: 'en' },
  {
    file: 'doc/en-fields-footnote-endnote.doc',
    outcome: 'read',
    lang: 'en',
  },
  { file: 'doc/de-en-bilingual-translation-memory.doc', outcome: 'read', lang: ['de', 'en'] },
  { file: 'doc/encrypted-rc4-password.doc', outcome: 'refuse', keys: ['fileEncrypted'] },

  // DOCX
  { file: 'docx/ru-uz-en-mixed-textbox-notes-table.docx', outcome: 'read', lang: 'ru' },
  { file: 'docx/ru-library-calendar-tables-textbox.docx', outcome: 'read', lang: 'ru' },
  { file: 'docx/en-resume-textboxes-numbering.docx', outcome: 'read', lang: 'en' },
  {
    file: 'docx/en-clinical-protocol-tables.docx',
    outcome: 'read',
    lang: 'en',
  },
  { file: 'docx/en-tracked-changes-deleted-word.docx', outcome: 'read', lang: 'en' },
  { file: 'docx/en-footnote-endnote-content-controls.docx', outcome: 'read', lang: 'en' },
  // Its text is '東京': two characters, Japanese or Chinese, nothing tells which.
  { file: 'docx/jp-ruby-tokyo.docx', outcome: 'read', lang: ['jp', 'und'] },
  { file: 'docx/zh-fields-nested-instrtext.docx', outcome: 'read', lang: 'zh' },
  { file: 'docx/encrypted-agile-password.docx', outcome: 'refuse', keys: ['fileEncrypted'] },

  // TXT
  { file: 'txt/en-frankenstein-hard-wrapped-utf8.txt', outcome: 'read', lang: 'en' },
  { file: 'txt/zh-TW-rulin-waishi-hard-wrapped-utf8.txt', outcome: 'read', lang: 'zh-TW' },
  { file: 'txt/jp-rashomon-shift-jis-english-header.txt', outcome: 'read', lang: 'jp' },
  { file: 'txt/jp-readme-iso-2022-jp.txt', outcome: 'read', lang: 'jp' },
  { file: 'txt/jp-news-blog-rss-euc-jp.txt', outcome: 'read', lang: 'jp' },
  {
    file: 'txt/he-hebrew-language-windows-1255.txt',
    outcome: 'read',
    lang: 'he',
  },
  { file: 'txt/el-greek-news-iso-8859-7.txt', outcome: 'read', lang: 'el' },
  { file: 'txt/el-utf8-article-windows-1253.txt', outcome: 'read', lang: 'el' },
  {
    file: 'txt/uk-marmots-windows-1251.txt',
    outcome: 'read',
    lang: 'uk',
  },
  { file: 'txt/hu-news-windows-1250.txt', outcome: 'read', lang: 'hu' },
  { file: 'txt/et-chekhov-windows-1257.txt', outcome: 'read', lang: 'et' },
  { file: 'txt/cs-kingfisher-x-mac-ce.txt', outcome: 'read', lang: 'cs' },
  { file: 'txt/ar-windows-1256-article.txt', outcome: 'read', lang: 'ar' },
  { file: 'txt/ko-north-korea-euc-kr.txt', outcome: 'read', lang: 'ko' },
  { file: 'txt/ru-childrens-news-rss-koi8-r.txt', outcome: 'read', lang: 'ru' },
  {
    file: 'txt/en-unicode-sampler-utf16le-bom-crlf.txt',
    outcome: 'read',
    lang: 'en',
  },
  {
    file: 'txt/en-unicode-sampler-utf16be-no-bom-crlf.txt',
    outcome: 'read',
    lang: 'en',
  },
  {
    file: 'txt/en-koi8-u-viewer-sample.txt',
    outcome: 'read',
    lang: 'en',
    check: (book) => expect(bookText(book)).toContain('Привіт світе'),
  },
  {
    file: 'txt/en-windows-1258-viewer-sample.txt',
    outcome: 'read',
    lang: 'en',
    check: (book) => expect(bookText(book)).toContain('Trường học ở Việt Nam'),
  },
];

/**
 * OCR reads with the book's language when a model reads it, as for an uploader who named it, else
 * with English and Chinese, as for one who did not (the upload stage's default).
 */
async function outcomeOf(file: string, lang: Expectation['lang']): Promise<ParsedBook | ParseError> {
  const input = readFileSync(path.join(WILD, file));
  const named = typeof lang === 'string' && hasOcrLanguage(lang) ? [lang] : undefined;
  try {
    return await parseBook(input, { ocrLanguages: named ?? ['en', 'zh'], signal: AbortSignal.timeout(110_000) });
  } catch (error) {
    if (error instanceof ParseError) return error;
    throw error;
  }
}

/**
 * What a reader is shown: every block's text, notes and code included (the references hold them
 * too). `bookText` leaves them out for language detection.
 */
function readerText(book: ParsedBook): string {
  return book.chapters
    .flatMap((c) => c.blocks.map((b) => (b.type === 'footnote' && b.noteLabel ? `[${b.noteLabel}] ${b.text}` : b.text)))
    .join('\n');
}

function expectLanguage(book: ParsedBook, lang: string | string[]) {
  const detection = detectBookLanguage(book);
  const wanted = Array.isArray(lang) ? lang : [lang];
  expect(wanted, JSON.stringify(detection.scores)).toContain(detection.detected);
}

describe.skipIf(!existsSync(WILD))('wild documents', () => {
  afterAll(() => disposeSharedOcrEngine());

  it('covers every document of the set', () => {
    const documents = readdirSync(WILD, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && !e.name.endsWith('.ref.txt') && !/MANIFEST|SHA256SUMS/.test(e.name))
      .map((e) => path.relative(WILD, path.join(e.parentPath, e.name)))
      .sort();
    expect(documents).toEqual(EXPECTATIONS.map((e) => e.file).sort());
  });

  for (const expected of EXPECTATIONS) {
    it(expected.file, async () => {
      const result = await outcomeOf(expected.file, expected.lang);
      if (expected.outcome === 'refuse') {
        expect(result).toBeInstanceOf(ParseError);
        expect(expected.keys).toContain((result as ParseError).key);
        return;
      }
      if (result instanceof ParseError) {
        expect(expected.outcome, `refused with ${result.key}: ${result.message}`).toBe('ocrOrRefuse');
        expect(expected.keys).toContain(result.key);
        return;
      }
      const text = readerText(result);
      const refPath = path.join(WILD, `${expected.file}.ref.txt`);
      if (existsSync(refPath)) {
        const figures = score(readFileSync(refPath, 'utf8'), text);
        expect(passing(figures), JSON.stringify(figures)).toBe(true);
      } else {
        expect(score(text, text).garbage).toBeLessThanOrEqual(0.01);
      }
      if (expected.lang) expectLanguage(result, expected.lang);
      expected.check?.(result);
    });
  }
});
