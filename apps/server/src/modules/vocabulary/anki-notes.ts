/**
 * The translation of a word's sentence, for an Anki card: the paragraph's translation cut into
 * sentences the way its original is (Intl.Segmenter in each language). When both have as many
 * sentences — machine translation keeps them, most of the time — the sentence at the same place is
 * the sentence's translation; otherwise the whole paragraph's translation is the best there is.
 */
export function sentenceTranslation(
  paragraph: string,
  translation: string,
  sentence: string,
  languages: { source: string; target: string },
): string {
  if (!translation.trim()) return '';
  const originals = sentences(paragraph, languages.source);
  const translated = sentences(translation, languages.target);
  if (originals.length !== translated.length || originals.length < 2) return translation.trim();
  const wanted = squash(sentence);
  const index = originals.findIndex((s) => squash(s).includes(wanted) || wanted.includes(squash(s)));
  return index >= 0 ? translated[index]! : translation.trim();
}

function sentences(text: string, language: string): string[] {
  const locale = language === 'jp' ? 'ja' : language;
  let segmenter: Intl.Segmenter;
  try {
    segmenter = new Intl.Segmenter(locale, { granularity: 'sentence' });
  } catch {
    segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
  }
  return [...segmenter.segment(text)].map((s) => s.segment.trim()).filter(Boolean);
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** Where the word stands in its sentence (for marking it on the card), or null. */
export function wordInSentence(sentence: string, word: string): { start: number; end: number } | null {
  const at = sentence.toLowerCase().indexOf(word.toLowerCase());
  return at < 0 || !word ? null : { start: at, end: at + word.length };
}
