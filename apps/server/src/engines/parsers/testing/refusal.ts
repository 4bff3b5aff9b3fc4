import { expect } from 'vitest';
import { ParseError } from '../errors.ts';

/** The ParseError a parse ends with; fails the test when it ends otherwise. */
export async function refusal(promise: Promise<unknown>): Promise<ParseError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ParseError);
  return error as ParseError;
}
