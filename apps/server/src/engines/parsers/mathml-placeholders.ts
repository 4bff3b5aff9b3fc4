/**
 * Alt texts that say nothing about a formula. Conversion tools and publishers' workflows fill a
 * MathML `alttext` they have no description for with a stock phrase ("Alternative text not
 * available", "equation", "image", "数学公式"), a numbered label ("Equation 3.2") or the name of the
 * picture the formula was made from ("eq0012.gif"). Such an alt text hides the mathematics the MathML
 * holds, so the MathML is read instead (mathml.ts).
 */

/** Stock phrases, lower case, numbers written '#' (see `normalize`), in the languages books come in. */
const PHRASES = new Set([
  // English
  'alternative text not available',
  'alternate text not available',
  'alt text not available',
  'alt text unavailable',
  'alternative text unavailable',
  'no alternative text',
  'no alternative text available',
  'no alt text',
  'no alt text available',
  'alternative text',
  'alternate text',
  'alt text',
  'alttext',
  'alt',
  'description not available',
  'no description',
  'no description available',
  'image',
  'img',
  'picture',
  'graphic',
  'figure',
  'math',
  'maths',
  'mathematics',
  'mathml',
  'math expression',
  'mathematical expression',
  'expression',
  'equation',
  'inline equation',
  'display equation',
  'displayed equation',
  'math equation',
  'mathematical equation',
  'eq',
  'eqn',
  'formula',
  'math formula',
  'mathematical formula',
  'inline formula',
  'display formula',
  'placeholder',
  'none',
  'null',
  'undefined',
  'unknown',
  'missing',
  'n/a',
  'tbd',
  'todo',
  // German
  'formel',
  'mathematische formel',
  'gleichung',
  'mathematischer ausdruck',
  'bild',
  'abbildung',
  'grafik',
  'alternativtext nicht verfügbar',
  'kein alternativtext',
  'kein alternativtext verfügbar',
  // French
  'équation',
  'formule',
  'formule mathématique',
  'expression mathématique',
  'texte alternatif non disponible',
  'texte de remplacement non disponible',
  'pas de texte alternatif',
  'aucun texte alternatif',
  // Spanish, Portuguese, Italian
  'ecuación',
  'fórmula',
  'fórmula matemática',
  'expresión matemática',
  'imagen',
  'texto alternativo no disponible',
  'sin texto alternativo',
  'equação',
  'expressão matemática',
  'imagem',
  'texto alternativo não disponível',
  'sem texto alternativo',
  'equazione',
  'formula matematica',
  'immagine',
  'testo alternativo non disponibile',
  // Russian
  'формула',
  'уравнение',
  'математическая формула',
  'изображение',
  'рисунок',
  'альтернативный текст недоступен',
  'нет альтернативного текста',
  // Chinese, Japanese, Korean
  '公式',
  '数学公式',
  '數學公式',
  '方程',
  '方程式',
  '图片',
  '圖片',
  '图像',
  '圖像',
  '无替代文本',
  '無替代文字',
  '替代文本不可用',
  '数式',
  '画像',
  '代替テキストなし',
  '代替テキストは利用できません',
  '수식',
  '수학 공식',
  '이미지',
  '그림',
  '대체 텍스트 없음',
  '대체 텍스트를 사용할 수 없음',
]);

/** The name of a picture file: what a tool writes when the formula was an image. */
const FILE_NAME = /^[\p{L}\p{N}_\-./ ]+\.(?:png|gif|jpe?g|svg|bmp|tiff?|wmf|emf|eps|mml)$/iu;

/** Lower case, compatibility forms folded, numbers and their brackets as '#', outer punctuation off. */
function normalize(alt: string): string {
  return alt
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[([]?\p{N}+(?:[.,\-–]\p{N}+)*[)\]]?/gu, '#')
    .replace(/\s+/g, ' ')
    .replace(/^[\s\p{P}]+|[\s\p{P}]+$/gu, '')
    .trim();
}

/**
 * Whether an alt text is a stock phrase rather than a description of its formula: a known phrase,
 * alone or numbered ("Equation 3", "formula (2.1)", "#4"), empty of letters, or a picture's file name.
 */
export function isPlaceholderAltText(alt: string): boolean {
  const text = alt.trim();
  if (!text) return true;
  if (FILE_NAME.test(text)) return true;
  const phrase = normalize(text);
  if (!phrase || phrase === '#') return true;
  return PHRASES.has(phrase) || PHRASES.has(phrase.replace(/^# | #$/g, ''));
}
