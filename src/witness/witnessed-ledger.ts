import type { WitnessEndpoint } from '../config/witnesses';
import type { Prisma } from '../db/database';
import type { AppendResult, FoundEntry, Ledger, LedgerCheckpoint, LedgerEntry, LockedLogSizes, WitnessCosignature } from '../ledger/ledger.port';
import type { LogHeads } from '../ledger/log-heads';
import type { LogAppend, PreparedAppend } from '../ledger/group-append';
import type { SqlExecutor } from '../db/sql-executor';
import { type WitnessVerifier, noteBody, parseWitnessVerifierKey, verifyCosignature } from './cosignature';
import type { PrismaCosignatureStore } from './cosignature-store';

/**
 * The ledger as every reader sees it: each checkpoint carries the cosignatures of the configured
 * witnesses as extra signature lines of its note (as C2SP does), plus per witness whether it
 * cosigned and why not. Stored lines are re-verified against the witness key and the served
 * body on every read, so a row forged in the database is simply not reported.
 */
export class WitnessedLedger implements Ledger {
  private readonly keys: readonly (WitnessEndpoint & { key: WitnessVerifier })[];

  constructor(
    private readonly inner: Ledger,
    private readonly store: PrismaCosignatureStore,
    witnesses: readonly WitnessEndpoint[],
    private readonly quorum: number,
  ) {
    this.keys = witnesses.map((w) => ({ ...w, key: parseWitnessVerifierKey(w.verifierKey) }));
  }

  get heads(): LogHeads {
    return this.inner.heads;
  }

  async checkpoint(logId: string, minSize?: number): Promise<LedgerCheckpoint> {
    const head = await this.inner.checkpoint(logId, minSize);
    if (this.keys.length === 0) return head;
    const witnessed = await this.withCosignatures(head);
    if (witnessed.witnessCosignatures >= this.quorum) return witnessed;
    // The head may be this instance's cached one while another instance has since stored a larger
    // head and sent it to the witnesses first: they never cosign a size below their latest, so the
    // older head stays unwitnessed forever. A newer stored head extends it; serve that instead.
    const newer = await this.inner.checkpoint(logId, head.treeSize + 1).catch(() => head);
    return newer.treeSize > head.treeSize ? this.withCosignatures(newer) : witnessed;
  }

  private async withCosignatures(head: LedgerCheckpoint): Promise<LedgerCheckpoint> {
    const { logId } = head;
    const [lines, progress] = await Promise.all([this.store.lines(logId, head.treeSize), this.store.allProgress(logId)]);
    const body = noteBody(head.note) ?? '';
    const witnesses: WitnessCosignature[] = [];
    let note = head.note;
    for (const w of this.keys) {
      const cosig = lines.filter((l) => l.witness === w.name).map((l) => verifyCosignature(body, l.line, w.key)).find((c) => c !== undefined);
      if (cosig) note += cosig.line;
      const p = progress.get(w.name);
      witnesses.push({
        name: w.name,
        verifierKey: w.verifierKey,
        cosigned: cosig !== undefined,
        cosignedAt: cosig ? new Date(cosig.timestamp * 1000).toISOString() : null,
        witnessedSize: p?.treeSize ?? null,
        lastError: cosig ? null : (p?.lastError ?? null),
      });
    }
    return { ...head, note, witnesses, witnessCosignatures: witnesses.filter((w) => w.cosigned).length, witnessQuorum: this.quorum };
  }

  appendInTransaction(tx: Prisma.TransactionClient, logId: string, entry: LedgerEntry): Promise<AppendResult> {
    return this.inner.appendInTransaction(tx, logId, entry);
  }

  prepareGroupAppend(tx: SqlExecutor, appends: readonly LogAppend[], locked?: LockedLogSizes): Promise<PreparedAppend> {
    return this.inner.prepareGroupAppend(tx, appends, locked);
  }

  appendBatch(tx: Prisma.TransactionClient, logId: string, entries: readonly LedgerEntry[]): Promise<AppendResult[]> {
    return this.inner.appendBatch(tx, logId, entries);
  }

  append(logId: string, entry: LedgerEntry): Promise<AppendResult> {
    return this.inner.append(logId, entry);
  }

  settle(logId: string): Promise<LedgerCheckpoint> {
    return this.inner.settle(logId);
  }

  settleInTransaction(tx: Prisma.TransactionClient, logId: string): Promise<LedgerCheckpoint> {
    return this.inner.settleInTransaction(tx, logId);
  }

  committed(heads: readonly LedgerCheckpoint[]): void {
    this.inner.committed(heads);
  }

  settleAll(): Promise<number> {
    return this.inner.settleAll();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  findEntry(logId: string, entryHash: Uint8Array): Promise<FoundEntry | null> {
    return this.inner.findEntry(logId, entryHash);
  }

  inclusionProof(logId: string, leafIndex: number, treeSize: number): Promise<string[]> {
    return this.inner.inclusionProof(logId, leafIndex, treeSize);
  }

  consistencyProof(logId: string, fromSize: number, toSize: number): Promise<string[]> {
    return this.inner.consistencyProof(logId, fromSize, toSize);
  }

  leafHashes(logId: string, start: number, end: number): Promise<string[]> {
    return this.inner.leafHashes(logId, start, end);
  }
}
