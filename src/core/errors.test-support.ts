/** Test helper: the EngramError a promise rejects with (the test fails when it resolves or rejects with something else). */
import { expect } from 'vitest';
import { EngramError } from './errors.js';

export async function rejection(p: Promise<unknown>): Promise<EngramError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(EngramError);
  return e as EngramError;
}
