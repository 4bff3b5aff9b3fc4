/** The sentence a word was saved with, the word marked where it first appears. */
export function SentenceWithWord({ sentence, word, lang }: { sentence: string; word: string; lang?: string }) {
  if (!sentence) return null;
  const at = sentence.toLowerCase().indexOf(word.toLowerCase());
  if (at < 0) return <span lang={lang}>{sentence}</span>;
  return (
    <span lang={lang}>
      {sentence.slice(0, at)}
      <mark>{sentence.slice(at, at + word.length)}</mark>
      {sentence.slice(at + word.length)}
    </span>
  );
}
