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

/** Awaits `p` and expects it to reject with an AppError, which it returns for the caller's checks. */
export async function rejection(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}
