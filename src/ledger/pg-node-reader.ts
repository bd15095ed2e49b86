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

/** Nodes kept in all by a ProofNodeCache, each head counting as one more (~100 bytes each with the map overhead: ~6 MB). */
export const PROOF_NODE_CACHE_NODES = 65_536;

/**
 * The proof nodes of signed heads, per (log, tree size), for the read path (inclusion and
 * consistency proofs). Verifications of credentials of one issuer between two batches all prove
 * against the same head, and their proofs share the upper nodes: without the cache each one
 * re-read them, and the log's size to check its `treeSize` against.
 *
 * Stored nodes are immutable (written once by the append of their last leaf, never updated: the
 * tables are append-only), so a node read for a size at or below the committed head is valid for
 * as long as the process lives; no invalidation exists because none is needed. A (log, size) is
 * entered only after the caller checked that size against the log's head, which never shrinks,
 * so `knows` lets a later proof at that size skip the check. Never used inside a write
 * transaction: nodes read there may be rolled back.
 *
 * Bounded by the number of nodes in all; the least recently used head goes first.
 */
export class ProofNodeCache {
  private readonly heads = new Map<string, Map<string, Uint8Array>>();
  private nodes = 0;

  constructor(private readonly maxNodes = PROOF_NODE_CACHE_NODES) {}

  /** Nodes held in all plus one per head (never above the bound once a read completes). */
  get size(): number {
    return this.nodes;
  }

  /** Whether `size` was already checked against this log's head (and nodes for it may be cached). */
  knows(logSeq: bigint, size: number): boolean {
    return this.maxNodes > 0 && this.heads.has(`${logSeq}/${size}`);
  }

  /** A reader of this log at `size` (already checked against the head) that remembers what it reads. */
  reader(db: Prisma.TransactionClient, logSeq: bigint, size: number): NodeReader {
    const through = new PgNodeReader(db, logSeq);
    if (this.maxNodes <= 0) return through;
    const id = `${logSeq}/${size}`;
    // Entered now, nodes or not (a proof in a tree of one leaf reads none): the size is checked.
    this.touch(id);
    this.evict(id);
    return {
      getNodes: async (ids) => {
        const known = this.touch(id);
        const missing = ids.filter(({ level, index }) => !known.has(`${level}/${index}`));
        const read = missing.length > 0 ? await through.getNodes(missing) : [];
        const before = known.size;
        missing.forEach(({ level, index }, i) => known.set(`${level}/${index}`, read[i]!));
        // Copies: a caller must not be able to change what the next proof is built from.
        const out = ids.map(({ level, index }) => Uint8Array.from(known.get(`${level}/${index}`)!));
        // Counted only while the map is still held (it may have been evicted during the read).
        if (this.heads.get(id) === known) {
          this.nodes += known.size - before;
          this.evict(id);
        }
        return out;
      },
    };
  }

  /** The node map of one head, made the most recently used (created empty when new: it counts as one). */
  private touch(id: string): Map<string, Uint8Array> {
    let known = this.heads.get(id);
    if (known) this.heads.delete(id);
    else {
      known = new Map<string, Uint8Array>();
      this.nodes += 1;
    }
    this.heads.set(id, known);
    return known;
  }

  private evict(keep: string): void {
    for (const [id, known] of this.heads) {
      if (this.nodes <= this.maxNodes) return;
      if (id === keep) continue;
      this.nodes -= known.size + 1;
      this.heads.delete(id);
    }
    // One head alone beyond the bound: start it over rather than grow.
    const alone = this.heads.get(keep);
    if (alone && this.nodes > this.maxNodes) {
      this.nodes -= alone.size;
      alone.clear();
    }
  }
}
