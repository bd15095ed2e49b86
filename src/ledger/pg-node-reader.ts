import { AppError } from '../errors';
import type { NodeId, NodeReader } from '../domain/merkle';
import type { Prisma } from '../db/database';

/**
 * Reads stored perfect nodes of one log through a Prisma client or transaction: one query per
 * `getNodes` call. A missing node means the stored tree is incomplete, which is never the
 * caller's fault, so it is INTERNAL (the NodeReader contract: throw rather than omit).
 */
export class PgNodeReader implements NodeReader {
  constructor(
    private readonly db: Prisma.TransactionClient,
    private readonly logSeq: bigint,
  ) {}

  async getNodes(ids: ReadonlyArray<NodeId>): Promise<Uint8Array[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.ledgerNode.findMany({
      where: { logSeq: this.logSeq, OR: ids.map(({ level, index }) => ({ level, index })) },
      select: { level: true, index: true, hash: true },
    });
    const byId = new Map(rows.map((r) => [`${r.level}/${r.index}`, r.hash]));
    return ids.map(({ level, index }) => {
      const hash = byId.get(`${level}/${index}`);
      if (!hash) throw new AppError('INTERNAL', 'ledger log is missing a Merkle node');
      return Uint8Array.from(hash);
    });
  }
}
