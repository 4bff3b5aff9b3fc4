import { z } from 'zod';

/**
 * A title Yidu made because the book gives none (a text without headings cut into parts, a PDF cut
 * into runs of pages, a cover page, notes gathered at the end). It is stored as this marker, never as
 * words: the web app says it in the interface's language, the export in the reading language.
 */
export const GeneratedTitle = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('part'), n: z.number().int() }),
  z.object({ kind: z.literal('pages'), from: z.number().int(), to: z.number().int() }),
  z.object({ kind: z.literal('cover') }),
  z.object({ kind: z.literal('notes') }),
]);
export type GeneratedTitle = z.infer<typeof GeneratedTitle>;

/**
 * One entry of a book's contents, as the book declares them (EPUB nav or NCX, PDF outline, Word
 * headings) or as Yidu found them (the headings of a text). Entries come in the book's order, each
 * at its depth (1 = top level; a child is one level below its parent), and lead to one block.
 */
export const ContentsEntry = z.object({
  /** The entry's title; empty when `generated` says it. */
  title: z.string(),
  generated: GeneratedTitle.nullable(),
  level: z.number(),
  /** The reader page of the block the entry leads to. */
  page: z.number(),
  /** The block the entry leads to ('c3-b1'). */
  blockId: z.string(),
});
export type ContentsEntry = z.infer<typeof ContentsEntry>;

type Words = { part: string; pages: string; cover: string; notes: string };

/**
 * Generated titles in the 26 reading languages, for what the server writes in the reading language
 * (the exported EPUB, a saved word's chapter). `{n}`, `{from}`, `{to}` are numbers.
 */
const GENERATED_WORDS: Record<string, Words> = {
  en: { part: 'Part {n}', pages: 'Pages {from}–{to}', cover: 'Cover', notes: 'Notes' },
  zh: { part: '第 {n} 部分', pages: '第 {from}–{to} 页', cover: '封面', notes: '注释' },
  'zh-TW': { part: '第 {n} 部分', pages: '第 {from}–{to} 頁', cover: '封面', notes: '註釋' },
  hi: { part: 'भाग {n}', pages: 'पृष्ठ {from}–{to}', cover: 'आवरण', notes: 'टिप्पणियाँ' },
  es: { part: 'Parte {n}', pages: 'Páginas {from}–{to}', cover: 'Cubierta', notes: 'Notas' },
  ar: { part: 'الجزء {n}', pages: 'الصفحات {from}–{to}', cover: 'الغلاف', notes: 'الحواشي' },
  fr: { part: 'Partie {n}', pages: 'Pages {from} à {to}', cover: 'Couverture', notes: 'Notes' },
  bn: { part: 'অংশ {n}', pages: 'পৃষ্ঠা {from}–{to}', cover: 'প্রচ্ছদ', notes: 'টীকা' },
  ru: { part: 'Часть {n}', pages: 'Страницы {from}–{to}', cover: 'Обложка', notes: 'Примечания' },
  pt: { part: 'Parte {n}', pages: 'Páginas {from}–{to}', cover: 'Capa', notes: 'Notas' },
  id: { part: 'Bagian {n}', pages: 'Halaman {from}–{to}', cover: 'Sampul', notes: 'Catatan' },
  ur: { part: 'حصہ {n}', pages: 'صفحات {from}–{to}', cover: 'سرورق', notes: 'حواشی' },
  de: { part: 'Teil {n}', pages: 'Seiten {from}–{to}', cover: 'Umschlag', notes: 'Anmerkungen' },
  jp: { part: '第{n}部', pages: '{from}〜{to}ページ', cover: '表紙', notes: '注' },
  pa: { part: 'ਭਾਗ {n}', pages: 'ਪੰਨੇ {from}–{to}', cover: 'ਕਵਰ', notes: 'ਟਿੱਪਣੀਆਂ' },
  vi: { part: 'Phần {n}', pages: 'Trang {from}–{to}', cover: 'Bìa', notes: 'Chú thích' },
  mr: { part: 'भाग {n}', pages: 'पृष्ठे {from}–{to}', cover: 'मुखपृष्ठ', notes: 'टिपा' },
  jv: { part: 'Pérangan {n}', pages: 'Kaca {from}–{to}', cover: 'Sampul', notes: 'Cathetan' },
  ko: { part: '제{n}부', pages: '{from}–{to}쪽', cover: '표지', notes: '주석' },
  fa: { part: 'بخش {n}', pages: 'صفحه‌های {from} تا {to}', cover: 'جلد', notes: 'یادداشت‌ها' },
  tr: { part: 'Kısım {n}', pages: 'Sayfa {from}–{to}', cover: 'Kapak', notes: 'Notlar' },
  ta: { part: 'பகுதி {n}', pages: 'பக்கங்கள் {from}–{to}', cover: 'அட்டை', notes: 'குறிப்புகள்' },
  sw: { part: 'Sehemu ya {n}', pages: 'Kurasa {from}–{to}', cover: 'Jalada', notes: 'Maelezo' },
  it: { part: 'Parte {n}', pages: 'Pagine {from}–{to}', cover: 'Copertina', notes: 'Note' },
  nl: { part: 'Deel {n}', pages: "Pagina's {from}–{to}", cover: 'Omslag', notes: 'Noten' },
  da: { part: 'Del {n}', pages: 'Sider {from}–{to}', cover: 'Omslag', notes: 'Noter' },
};

/** A generated title in a reading language (its code: 'zh', 'jp'…; English for any other). */
export function generatedTitleText(title: GeneratedTitle, language: string): string {
  const words = GENERATED_WORDS[language] ?? GENERATED_WORDS.en!;
  const fill = (pattern: string, values: Record<string, number>) =>
    pattern.replace(/\{(\w+)\}/g, (_m, name: string) => String(values[name] ?? ''));
  switch (title.kind) {
    case 'part':
      return fill(words.part, { n: title.n });
    case 'pages':
      return fill(words.pages, { from: title.from, to: title.to });
    case 'cover':
      return words.cover;
    case 'notes':
      return words.notes;
  }
}

/** A chapter's or entry's title as text in a reading language: its own, else its generated one. */
export function titleText(title: string, generated: GeneratedTitle | null | undefined, language: string): string {
  return generated ? generatedTitleText(generated, language) : title;
}
