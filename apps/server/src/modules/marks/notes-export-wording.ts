import type { UiLanguage } from '@yidu/shared';

type Kind = 'annotation' | 'highlight' | 'underline' | 'bookmark';
type Colour = 'yellow' | 'green' | 'blue' | 'pink' | 'purple';

interface Wording {
  kind: Record<Kind, string>;
  colour: Record<Colour, string>;
  page: (page: number) => string;
  /** "highlight (yellow)", 高亮（黄色） */
  withColour: (kind: string, colour: string) => string;
  /** Between the mark and its page: ", " or "，". */
  comma: string;
}

const latin = (page: string) => ({
  page: (n: number) => page.replace('{page}', String(n)),
  withColour: (kind: string, colour: string) => `${kind} (${colour})`,
  comma: ', ',
});

/**
 * The words of the notes export (Markdown), in the reader's interface language: the same names the
 * reader's notes panel gives marks and colours (apps/web locales, reader.marks.kind, reader.colors).
 */
const WORDING: Record<UiLanguage, Wording> = {
  zh: {
    kind: { annotation: '批注', highlight: '高亮', underline: '划线', bookmark: '书签' },
    colour: { yellow: '黄色', green: '绿色', blue: '蓝色', pink: '粉色', purple: '紫色' },
    page: (n) => `第 ${n} 页`,
    withColour: (kind, colour) => `${kind}（${colour}）`,
    comma: '，',
  },
  en: {
    kind: { annotation: 'Note', highlight: 'Highlight', underline: 'Underline', bookmark: 'Bookmark' },
    colour: { yellow: 'yellow', green: 'green', blue: 'blue', pink: 'pink', purple: 'purple' },
    ...latin('p. {page}'),
  },
  de: {
    kind: { annotation: 'Notiz', highlight: 'Markierung', underline: 'Unterstreichung', bookmark: 'Lesezeichen' },
    colour: { yellow: 'Gelb', green: 'Grün', blue: 'Blau', pink: 'Rosa', purple: 'Lila' },
    ...latin('S. {page}'),
  },
  es: {
    kind: { annotation: 'Nota', highlight: 'Resaltado', underline: 'Subrayado', bookmark: 'Marcador' },
    colour: { yellow: 'amarillo', green: 'verde', blue: 'azul', pink: 'rosa', purple: 'morado' },
    ...latin('p. {page}'),
  },
  fr: {
    kind: { annotation: 'Note', highlight: 'Surlignage', underline: 'Soulignement', bookmark: 'Signet' },
    colour: { yellow: 'jaune', green: 'vert', blue: 'bleu', pink: 'rose', purple: 'violet' },
    ...latin('p. {page}'),
  },
  jp: {
    kind: { annotation: 'メモ', highlight: 'ハイライト', underline: '下線', bookmark: 'しおり' },
    colour: { yellow: '黄色', green: '緑', blue: '青', pink: 'ピンク', purple: '紫' },
    page: (n) => `${n} ページ`,
    withColour: (kind, colour) => `${kind}（${colour}）`,
    comma: '、',
  },
  ko: {
    kind: { annotation: '메모', highlight: '하이라이트', underline: '밑줄', bookmark: '책갈피' },
    colour: { yellow: '노란색', green: '초록색', blue: '파란색', pink: '분홍색', purple: '보라색' },
    page: (n) => `${n}쪽`,
    withColour: (kind, colour) => `${kind}(${colour})`,
    comma: ', ',
  },
};

/** How one mark is named in the export: "Highlight (yellow), p. 3", 高亮（黄色），第 3 页. */
export function exportLabels(language: UiLanguage) {
  const w = WORDING[language];
  return {
    page: w.page,
    mark: (kind: string, colour: string | null, page: number) => {
      const name = w.kind[kind as Kind] ?? kind;
      const coloured = colour ? w.withColour(name, w.colour[colour as Colour] ?? colour) : name;
      return `${coloured}${w.comma}${w.page(page)}`;
    },
  };
}
