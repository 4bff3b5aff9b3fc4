import { randomInt } from 'node:crypto';
import type { BooksRepo } from './books.repo.ts';

const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** A short, unguessable public id for a book (used in links and reader URLs). */
export async function newBookCode(repo: BooksRepo): Promise<string> {
  for (;;) {
    const code = Array.from({ length: 12 }, () => ALPHABET[randomInt(0, ALPHABET.length)]).join('');
    if (!(await repo.codeTaken(code))) return code;
  }
}
