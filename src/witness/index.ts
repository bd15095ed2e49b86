import type { WitnessConfig } from '../config/witnesses';
import type { PrismaClient } from '../db/database';
import type { Clock } from '../domain/ports';
import type { Ledger, LedgerCheckpoint } from '../ledger/ledger.port';
import type { Logger } from '../logging/logger';
import { PrismaCosignatureStore } from './cosignature-store';
import { type RetryPolicy, WitnessCosigner } from './cosigner';
import { WitnessedLedger } from './witnessed-ledger';

export { WitnessCosigner, type RetryPolicy } from './cosigner';

/**
 * Wires the log side of witnessing around a ledger: `makeLedger` receives the hook to pass as the
 * ledger's `onSigned`, and the wrapped ledger is what services read checkpoints from.
 */
export function withWitnesses(
  prisma: PrismaClient,
  config: WitnessConfig | undefined,
  deps: { clock: Clock; logger?: Logger; retry?: RetryPolicy },
  makeLedger: (onSigned: (head: LedgerCheckpoint) => void) => Ledger,
): { ledger: Ledger; cosigner: WitnessCosigner } {
  const witnesses = config?.witnesses ?? [];
  const store = new PrismaCosignatureStore(prisma, deps.clock);
  let cosigner: WitnessCosigner | undefined;
  const inner = makeLedger((head) => cosigner?.headSigned(head));
  cosigner = new WitnessCosigner({
    ledger: inner,
    store,
    witnesses,
    ...(deps.logger ? { logger: deps.logger } : {}),
    ...(deps.retry ? { retry: deps.retry } : {}),
  });
  return { ledger: new WitnessedLedger(inner, store, witnesses, config?.quorum ?? 0), cosigner };
}
