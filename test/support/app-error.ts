import { AppError } from '../../src/errors';

/** Runs `fn` and expects it to throw an AppError with `code` (and a message matching `messagePart`). */
export function expectAppError(fn: () => unknown, code: string, messagePart?: string | RegExp): AppError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(AppError);
  const err = caught as AppError;
  expect(err.code).toBe(code);
  if (messagePart !== undefined) expect(err.message).toMatch(messagePart);
  return err;
}
