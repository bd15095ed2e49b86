import type { PrismaClient } from '../db/database';
import type { Ledger } from './ledger.port';
import { type LedgerOptions, PgLedger } from './pg-ledger';

export type { AppendResult, FoundEntry, Ledger, LedgerCheckpoint, LedgerEntry, LogHeads } from './ledger.port';
export { type LedgerOptions, MAX_LEAF_RANGE } from './pg-ledger';
export { parseLedgerId } from './log-id';
export { LEDGER_KEY_INFO, deriveLedgerSeed } from './log-key';

/** The embedded (PostgreSQL/PGlite) ledger. The seed is the log's signing key: never store or log it. */
export function createLedger(prisma: PrismaClient, options: LedgerOptions): Ledger {
  return new PgLedger(prisma, options);
}
