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
});
