import { describe, expect, it } from 'vitest';
import { rankPassages, snippetOf } from './search-rank.ts';
import { analyseQuery, findMatches, fold, lightStem, mergeRanges, tsQueryOf } from './search-text.ts';

const words = (text: string, query: string, languages = ['en']) => {
  const { terms } = analyseQuery(query, languages);
  return mergeRanges(findMatches(text, terms)).map(([s, e]) => text.slice(s, e));
};

describe('reading a question', () => {
  it('drops the stop words of the book and reader languages, keeps what the question is about', () => {
    expect(analyseQuery('Who is Queequeg?', ['en', 'zh'])).toMatchObject({
      keywords: ['queequeg'],
      ignored: ['who', 'is'],
    });
    expect(analyseQuery('Qui est Queequeg ?', ['en', 'fr']).keywords).toEqual(['queequeg']);
    // Not a stop word in the languages at hand: kept.
    expect(analyseQuery('Qui est Queequeg ?', ['en', 'zh']).keywords).toEqual(['qui', 'est', 'queequeg']);
    // Nothing but common words: all searched.
    expect(analyseQuery('to be or not to be', ['en'])).toMatchObject({
      keywords: ['to', 'be', 'or', 'not'],
      ignored: [],
    });
  });

  it('cuts Chinese and Japanese questions at their function words and looks for character pairs', () => {
    const chinese = analyseQuery('贾宝玉是谁？', ['zh']);
    expect(chinese).toMatchObject({ keywords: ['贾宝玉'], ignored: ['是谁'] });
    expect(tsQueryOf(chinese.terms)).toBe("('贾' & '宝') | ('宝' & '玉')");
    expect(analyseQuery('诸葛亮怎么死的', ['zh']).keywords).toEqual(['诸葛亮', '死']);
    expect(analyseQuery('クィークェグとは誰ですか', ['jp']).keywords).toEqual(['クィークェグ']);
    expect(analyseQuery('퀴퀘그는 누구인가요?', ['ko']).keywords).toEqual(['퀴퀘그']);
    // A question of stop words only is searched as typed.
    expect(analyseQuery('是', ['zh']).keywords).toEqual(['是']);
  });

  it('matches Latin-script words by a cheap stem, accents and case folded', () => {
    expect(lightStem('whales')).toBe('whal');
    expect(lightStem('queequeg')).toBe('queequeg');
    expect(lightStem('sea')).toBe('sea');
    expect(fold('Église STRAßE')).toBe('eglise strasse');
    expect(words('The Whale, whales and whaling; a whaleboat. Sea-whale', 'whale')).toEqual([
      'Whale',
      'whales',
      'whaling',
      'whaleboat',
      'whale',
    ]);
    expect(words('Une église, UNE EGLISE', 'eglise', ['fr'])).toEqual(['église', 'EGLISE']);
    // A short word matches itself only.
    expect(words('sea, seas, season', 'sea')).toEqual(['sea']);
    expect(tsQueryOf(analyseQuery('whales sea', ['en']).terms)).toBe("('whal':*) | ('sea')");
  });

  it('matches CJK pairs only where the characters stand side by side', () => {
    expect(words('那贾宝玉见了宝玉，贾。宝', '贾宝玉', ['zh'])).toEqual(['贾宝玉', '宝玉']);
    expect(words('“Queequeg’s harpoon”', 'queequeg')).toEqual(['Queequeg']);
  });
});

describe('ranking passages', () => {
  const candidate = (seq: number, text: string, translation: string | null = null) => ({
    seq,
    blockId: `b${seq}`,
    page: 1,
    chapterTitle: 'One',
    text,
    translation,
  });

  it('puts the passage with both words first, then the rare word above the common one', () => {
    const { terms, keywords } = analyseQuery('Queequeg harpoon', ['en']);
    const ranking = rankPassages(
      [
        candidate(1, 'The harpoon was long. Another harpoon. A third harpoon lay there.'),
        candidate(2, `Queequeg sat by the fire. ${'And the night went on. '.repeat(3)}`),
        candidate(3, 'Queequeg lifted his harpoon.'),
        candidate(4, 'Nothing here'),
        ...[5, 6, 7, 8, 9].map((seq) => candidate(seq, 'A harpoon.')),
      ],
      terms,
      keywords,
      10,
    );
    // Harpoon is in most paragraphs of this book, Queequeg in two.
    expect(ranking.passages.slice(0, 2).map((p) => p.candidate.seq)).toEqual([3, 2]);
    expect(ranking).toMatchObject({
      matchedPassages: 8,
      occurrences: 11,
      keywords: [
        { keyword: 'queequeg', passages: 2, occurrences: 2 },
        { keyword: 'harpoon', passages: 7, occurrences: 9 },
      ],
    });
  });

  it('counts a passage by its better text: a name kept in the translation does not count twice', () => {
    const { terms, keywords } = analyseQuery('Queequeg', ['en', 'fr']);
    const ranking = rankPassages(
      [candidate(1, 'Queequeg said nothing.'), candidate(2, 'Queequeg said nothing.', 'Queequeg ne dit rien.')],
      terms,
      keywords,
      50,
    );
    expect(ranking.passages.map((p) => p.candidate.seq)).toEqual([1, 2]);
    expect(ranking.passages[0]!.score).toBeCloseTo(ranking.passages[1]!.score);
    expect(ranking.occurrences).toBe(3);
  });

  it('finds a passage through its translation and shows the translation as plain text', () => {
    const { terms, keywords } = analyseQuery('魁魁格', ['en', 'zh']);
    const [passage] = rankPassages(
      [candidate(1, 'Queequeg was a native.', '<b>魁魁格</b> &amp; 岛民')],
      terms,
      keywords,
      10,
    ).passages;
    expect(passage).toMatchObject({ inTranslation: true, snippet: '魁魁格 & 岛民', highlights: [[0, 3]] });
  });

  it('cuts long passages around the most telling words without splitting a word', () => {
    const text = `${'Call me Ishmael and the sea. '.repeat(20)}There Queequeg stood. ${'The sea again. '.repeat(20)}`;
    const { terms } = analyseQuery('sea Queequeg', ['en']);
    const { snippet, highlights } = snippetOf(text, findMatches(text, terms), [0.1, 5]);
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet.length).toBeLessThan(260);
    expect(highlights.map(([s, e]) => snippet.slice(s, e))).toContain('Queequeg');
    for (const [s, e] of highlights) expect(['sea', 'Queequeg']).toContain(snippet.slice(s, e));
    // Whole words at both ends.
    const start = text.indexOf(snippet.slice(1, -1));
    expect(text[start - 1]).toBe(' ');
    expect(text[start + snippet.length - 2]).toBe(' ');
  });
});
