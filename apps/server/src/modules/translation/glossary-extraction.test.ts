import { describe, expect, it } from 'vitest';
import { frequentNames } from './glossary-extraction.ts';

describe('names found without a model', () => {
  it('counts capitalised words and runs inside sentences, with honorifics, not sentence openers or possessives', () => {
    const texts = [
      'When Elizabeth came in, Mr. Darcy bowed. The room was quiet.',
      'She thought of Elizabeth’s sister Jane Bennet and of Mr. Darcy again.',
      'It was Elizabeth who spoke to Mr. Darcy; Jane Bennet smiled at Elizabeth.',
      'Then they walked. Then Jane Bennet laughed, and Mr. Darcy left.',
    ];
    expect(frequentNames(texts)).toEqual(['Elizabeth', 'Mr. Darcy', 'Jane Bennet']);
  });

  it('keeps O’-, D’- and Mc-names whole, and runs of titles with their name', () => {
    const texts = [
      'He cheered for Daniel O’Connell and for D’Arcy, and young McCarthy cheered too.',
      'Crowds followed Daniel O’Connell; D’Arcy and McCarthy came later.',
      'It was Daniel O’Connell, not D’Arcy, whom McCarthy admired. So said Lord St. Simon.',
      'They wrote to Lord St. Simon, and Lord St. Simon answered.',
    ];
    const names = frequentNames(texts);
    expect(names).toEqual(expect.arrayContaining(['Daniel O’Connell', 'D’Arcy', 'McCarthy', 'Lord St. Simon']));
    // No fragments of them.
    expect(names.filter((n) => /O’$|^Connell|^Arcy|^Carthy|^Lord St$/.test(n))).toEqual([]);
  });

  it('leaves out honorifics alone, parts of the book and common words written with a capital', () => {
    const texts = [
      'He gave it to the Mrs. and left. “Is it the Mrs?” asked Mr. Bloom of Mrs Breen.',
      'Later Mr. Bloom met Mrs Breen again, and the Mrs. smiled; it was in the Book, he said.',
      'Mr. Bloom said the Mrs. knew, and Mrs Breen read the Book, a book of the Chapter and its Illustration.',
      'The Book says so, a book she had, the book of books; see Chapter and Illustration, and her Ladyship.',
      'A book, a good book, every book; the Chapter and the Illustration; her Ladyship and her Ladyship.',
      'So it was that Mr. Bloom walked home.',
    ];
    const names = frequentNames(texts);
    expect(names).toEqual(expect.arrayContaining(['Mr. Bloom', 'Mrs Breen']));
    for (const word of ['Mrs', 'Book', 'Chapter', 'Illustration', 'Ladyship']) expect(names).not.toContain(word);
  });
});
