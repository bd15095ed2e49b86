import type { AnchorMode } from '../config/anchor';
import type { AnchorAdapter, AnchorStatus } from './anchor.port';
import type { AnchorOutbox } from './outbox';

/**
 * Read side of anchoring, for verification and the ledger routes: the outbox status of a signed
 * head and, when it is anchored and an adapter is configured, the receipt re-checked on the ledger.
 */
export class AnchorService {
  constructor(
    private readonly outbox: AnchorOutbox,
    private readonly adapter: AnchorAdapter | null,
    readonly mode: AnchorMode,
  ) {}

  /** False with CREDGATE_ANCHOR=none: verification then reports no anchor status. */
  get enabled(): boolean {
    return this.mode !== 'none';
  }

  /** The status of (logId, treeSize), the receipt checked against the ledger when `check`; null when no such head was signed. */
  async status(logId: string, treeSize: number, options: { check: boolean }): Promise<AnchorStatus | null> {
    const row = await this.outbox.status(logId, treeSize);
    if (!row || !options.check || row.status !== 'anchored' || !row.receipt || !this.adapter) return row;
    const check = await this.adapter.checkReceipt(row.receipt, { logId: row.logId, treeSize: row.treeSize, rootHash: row.rootHash });
    return { ...row, check };
  }
}
