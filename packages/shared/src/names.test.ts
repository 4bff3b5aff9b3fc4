import { describe, expect, it } from 'vitest';
import { nameKey, nameProblem, normalizeName } from './names.ts';

describe('names that cannot pass for another', () => {
  it('keeps one form per name and compares without case', () => {
    expect(normalizeName('  ａｄｍｉｎ  ')).toBe('admin');
    expect(normalizeName('Ann   Lee')).toBe('Ann Lee');
    expect(nameKey('Admin ')).toBe(nameKey('ADMIN'));
    expect(nameKey('Straße')).toBe('straße');
  });

  it('refuses invisible and direction-changing characters', () => {
    for (const name of [
      'admin\u200B',
      '\u202Enimda',
      'ad\u200Dmin',
      'a\u2066b',
      'x\u00ADy',
      'tab\there',
      'line\u2028sep',
      'ㅤ\u3164',
    ])
      expect(nameProblem(name)).toBe('invisibleCharacters');
  });

  it('refuses mixed scripts that look alike, but not Chinese, Japanese or Korean with Latin', () => {
    expect(nameProblem('аdmin')).toBe('mixedScripts'); // Cyrillic а
    expect(nameProblem('pаypal')).toBe('mixedScripts');
    expect(nameProblem('Ηello')).toBe('mixedScripts'); // Greek Eta
    for (const fine of ['李Lee', 'ゆうきYuki', '김Kim', '王小明', 'Иван', 'Ελένη', 'reader_42', 'Jean-Luc', 'José'])
      expect(nameProblem(fine)).toBeUndefined();
  });

  it("reserves the operators' names, however written", () => {
    for (const name of ['admin', 'Admin', 'ＡＤＭＩＮ', 'ad.min', 'a-d-m-i-n', 'Yidu', '管理员', '译读'])
      expect(nameProblem(name)).toBe('reserved');
    expect(nameProblem('admin', { allowReserved: true })).toBeUndefined();
    expect(nameProblem('admiral')).toBeUndefined();
  });
});
