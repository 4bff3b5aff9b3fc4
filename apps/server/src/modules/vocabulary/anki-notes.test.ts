import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMicrosoft, type FakeMicrosoft } from '../../engines/translation/testing/fake-servers.ts';
import { readTranslatedPage, registerUser, seedPagedBook, startTestApp, type TestApp } from '../../../test/helpers.ts';
import { sentenceTranslation, wordInSentence } from './anki-notes.ts';

describe("a word's sentence and its translation, for Anki", () => {
  it('takes the sentence at the same place when both languages have as many sentences', () => {
    const paragraph = 'Call me Ishmael. Some years ago I went to sea. It is a way I have.';
    const translation = '叫我以实玛利。几年前我出海了。这是我的一种办法。';
    const languages = { source: 'en', target: 'zh' };
    expect(sentenceTranslation(paragraph, translation, 'Some years ago I went to sea.', languages)).toBe(
      '几年前我出海了。',
    );
    // Not as many sentences: the whole paragraph's translation is the best there is.
    expect(sentenceTranslation(paragraph, '叫我以实玛利，几年前我出海了。', 'It is a way I have.', languages)).toBe(
      '叫我以实玛利，几年前我出海了。',
    );
    expect(sentenceTranslation(paragraph, '', 'Call me Ishmael.', languages)).toBe('');
    expect(wordInSentence('Some years ago I went to sea.', 'YEARS')).toEqual({ start: 5, end: 10 });
    expect(wordInSentence('Some years ago.', 'whale')).toBeNull();
  });
});

describe('words for Anki through HTTP', () => {
  let t: TestApp;
  let translator: FakeMicrosoft;
  let reader: string;
  let code: string;
  beforeAll(async () => {
    translator = await startFakeMicrosoft();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      MICROSOFT_TRANSLATOR_ENDPOINT: translator.url,
    });
    reader = await registerUser(t, 'reader');
    code = await seedPagedBook(t, 'reader', {
      pages: 2,
      paragraphsPerPage: 1,
      text: (i) => `Call me Ishmael. Some years ago I went to sea ${i}.`,
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await translator?.close();
  });

  it("gives the sentence's translation only for a page the reader paid for, and remembers what was sent", async () => {
    await readTranslatedPage(t, reader, code, 1);
    const save = (text: string, blockId: string, sentence: string) =>
      t.call('POST', '/api/vocabulary', {
        token: reader,
        body: { bookCode: code, language: 'zh', text, sentence, blockId, meaning: '年' },
      });
    const paid = await save('years', 'c1-b1', 'Some years ago I went to sea 1.');
    const unpaid = await save('sea', 'c1-b2', 'Some years ago I went to sea 2.');

    const words = (await t.call('GET', '/api/vocabulary/anki', { token: reader })).data;
    const byId = new Map(words.map((w: { id: number }) => [w.id, w]));
    expect(byId.get(paid.data.id)).toMatchObject({
      text: 'years',
      meaning: '年',
      wordStart: 5,
      wordEnd: 10,
      bookTitle: 'Moby-Dick',
      ankiSentAt: null,
    });
    // The fake translator keeps the sentences ("[zh-Hans] Call me Ishmael. Some years ago…"): the word's
    // sentence is the second, and so is its translation.
    expect((byId.get(paid.data.id) as { sentenceTranslation: string }).sentenceTranslation).toBe(
      'Some years ago I went to sea 1.',
    );
    expect((byId.get(unpaid.data.id) as { sentenceTranslation: string }).sentenceTranslation).toBe('');

    const sent = await t.call('POST', '/api/vocabulary/anki/sent', { token: reader, body: { ids: [paid.data.id] } });
    expect(sent.data.marked).toBe(1);
    expect(
      (await t.call('POST', '/api/vocabulary/anki/sent', { token: reader, body: { ids: [paid.data.id] } })).data.marked,
    ).toBe(0);
    const unsent = (await t.call('GET', '/api/vocabulary/anki?unsent=true', { token: reader })).data;
    expect(unsent.map((w: { id: number }) => w.id)).toEqual([unpaid.data.id]);
    const listed = (await t.call('GET', '/api/vocabulary', { token: reader })).data.items;
    expect(listed.find((w: { id: number }) => w.id === paid.data.id).ankiSentAt).not.toBeNull();

    // Nobody marks another reader's words.
    const other = await registerUser(t, 'other');
    expect(
      (await t.call('POST', '/api/vocabulary/anki/sent', { token: other, body: { ids: [unpaid.data.id] } })).data
        .marked,
    ).toBe(0);
  });
});
