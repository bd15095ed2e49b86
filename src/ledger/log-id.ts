import { AppError } from '../errors';

/** `0.0.<n>`: decimal without leading zeros, at most 19 digits (the BIGINT range is checked below). */
const LEDGER_ID_RE = /^0\.0\.(0|[1-9][0-9]{0,18})$/;
const MAX_SEQ = 2n ** 63n - 1n;

/** The ledger_logs.seq of a ledger id `0.0.<n>` (the inverse of `formatLedgerId`); anything else is INVALID_INPUT. */
export function parseLedgerId(logId: string): bigint {
  const m = typeof logId === 'string' ? LEDGER_ID_RE.exec(logId) : null;
  const seq = m ? BigInt(m[1] as string) : -1n;
  if (seq < 0n || seq > MAX_SEQ) {
    throw new AppError('INVALID_INPUT', 'logId must be a ledger id of the form 0.0.<n>', [{ field: 'logId', message: 'ledger id 0.0.<n>' }]);
  }
  return seq;
}
