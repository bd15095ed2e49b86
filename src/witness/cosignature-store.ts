import type { PrismaClient } from '../db/database';
import { parseLedgerId } from '../ledger/log-id';

/** What the log knows of one witness for one log. */
export interface WitnessProgress {
  /** The size the witness last cosigned (what the next request's `old` line says), or null. */
  readonly treeSize: number | null;
  readonly attempts: number;
  readonly lastError: string | null;
}

export interface StoredCosignature {
  readonly witness: string;
  readonly line: string;
}

/** `ledger_witness_state` and `ledger_cosignatures`. Rows are claims to re-verify, never trusted as such. */
export class PrismaCosignatureStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: { now(): Date },
  ) {}

  async progress(logId: string, witness: string): Promise<WitnessProgress | null> {
    const row = await this.prisma.ledgerWitnessState.findUnique({ where: { logSeq_witness: { logSeq: parseLedgerId(logId), witness } } });
    return row ? { treeSize: row.treeSize, attempts: row.attempts, lastError: row.lastError } : null;
  }

  /** Every witness's progress on a log, by witness name. */
  async allProgress(logId: string): Promise<Map<string, WitnessProgress>> {
    const rows = await this.prisma.ledgerWitnessState.findMany({ where: { logSeq: parseLedgerId(logId) } });
    return new Map(rows.map((r) => [r.witness, { treeSize: r.treeSize, attempts: r.attempts, lastError: r.lastError }]));
  }

  /** Records a failed request; `knownSize` is the size a 409 answer said the witness is at. */
  async failed(logId: string, witness: string, error: string, knownSize?: number): Promise<void> {
    const logSeq = parseLedgerId(logId);
    const now = this.clock.now();
    const size = knownSize === undefined ? {} : { treeSize: knownSize };
    await this.prisma.ledgerWitnessState.upsert({
      where: { logSeq_witness: { logSeq, witness } },
      create: { logSeq, witness, attempts: 1, lastError: error, updatedAt: now, ...size },
      update: { attempts: { increment: 1 }, lastError: error, updatedAt: now, ...size },
    });
  }

  /** Stores a verified cosignature of the head of `treeSize` and moves the witness's size there. */
  async cosigned(logId: string, witness: string, treeSize: number, line: string, cosignedAt: Date): Promise<void> {
    const logSeq = parseLedgerId(logId);
    const now = this.clock.now();
    await this.prisma.$transaction([
      this.prisma.ledgerCosignature.upsert({
        where: { logSeq_witness_treeSize: { logSeq, witness, treeSize } },
        create: { logSeq, witness, treeSize, line, cosignedAt },
        update: { line, cosignedAt },
      }),
      this.prisma.ledgerWitnessState.upsert({
        where: { logSeq_witness: { logSeq, witness } },
        create: { logSeq, witness, treeSize, attempts: 0, lastError: null, updatedAt: now },
        update: { treeSize, attempts: 0, lastError: null, updatedAt: now },
      }),
    ]);
  }

  /** The stored cosignature lines on the head of `treeSize`. */
  async lines(logId: string, treeSize: number): Promise<StoredCosignature[]> {
    const rows = await this.prisma.ledgerCosignature.findMany({
      where: { logSeq: parseLedgerId(logId), treeSize },
      orderBy: { witness: 'asc' },
      select: { witness: true, line: true },
    });
    return rows;
  }
}
