import { type AnchorAdapter, type AnchorCheckpoint, type AnchorExpectation, type AnchorReceipt, AnchorRejected, type ReceiptCheck } from '../../src/anchor/anchor.port';

/**
 * A stand-in for a remote ledger network (the one boundary the relay tests replace): it keeps what
 * was submitted, like a chain would, and can be told to fail. Submissions are counted per
 * (logId, treeSize) so tests can prove nothing was anchored twice.
 */
export class RecordingLedger implements AnchorAdapter {
  readonly kind = 'evm' as const;
  readonly network = 'evm:test';
  readonly anchored = new Map<string, AnchorReceipt>();
  readonly submissions: string[] = [];
  /** Failures to produce before the next submissions succeed (transient), or a permanent rejection. */
  failNext = 0;
  reject = false;
  delayMs = 0;
  private seq = 0;

  static key(c: Pick<AnchorCheckpoint, 'logId' | 'treeSize'>): string {
    return `${c.logId}@${c.treeSize}`;
  }

  async submit(cp: AnchorCheckpoint): Promise<AnchorReceipt> {
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    if (this.reject) throw new AnchorRejected('rejected by the test ledger');
    if (this.failNext > 0) {
      this.failNext -= 1;
      throw new Error('test ledger unreachable');
    }
    const key = RecordingLedger.key(cp);
    this.submissions.push(key);
    const receipt: AnchorReceipt = { adapter: 'evm', network: this.network, txId: `0x${(++this.seq).toString(16).padStart(64, '0')}`, target: 'test', logId: cp.logId, treeSize: cp.treeSize, rootHash: cp.rootHash };
    this.anchored.set(key, receipt);
    return receipt;
  }

  async find(cp: Pick<AnchorCheckpoint, 'logId' | 'treeSize'>): Promise<AnchorReceipt | null> {
    return this.anchored.get(RecordingLedger.key(cp)) ?? null;
  }

  async checkReceipt(receipt: AnchorReceipt, expected: AnchorExpectation): Promise<ReceiptCheck> {
    const held = this.anchored.get(RecordingLedger.key(expected));
    return held && held.txId === receipt.txId && held.rootHash === expected.rootHash ? { status: 'valid' } : { status: 'invalid', reason: 'not on the test ledger' };
  }

  async close(): Promise<void> {}
}
