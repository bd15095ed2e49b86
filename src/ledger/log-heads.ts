import { AppError } from '../errors';
import { enqueueAnchor } from '../anchor/outbox';
import { bytesToBase64 } from '../domain/encoding';
import {
  type NoteSigner,
  appendLeaves,
  consistencyProof,
  equalBytes,
  formatCheckpoint,
  formatVerifierKey,
  leafHash,
  publicKeyOf,
  rootAt,
  signNote,
  verifyConsistency,
} from '../domain/merkle';
import type { Clock } from '../domain/ports';
import type { Prisma, PrismaClient } from '../db/database';
import type { Logger } from '../logging/logger';
import { type LedgerCheckpoint, type LogHeads, unwitnessed } from './ledger.port';
import { parseLedgerId } from './log-id';
import { PgNodeReader } from './pg-node-reader';
import { retryTransaction } from '../db/transaction-retry';

// The interface is the port's (ledger.port.ts); re-exported for the modules that named it here.
export type { LogHeads };

export interface LogHeadOptions {
  readonly seed: Uint8Array;
  readonly origin: string;
  readonly clock: Clock;
  readonly logger?: Logger;
  /** Called after `advance` with the stored head (new or not); must return at once (witness cosigning). */
  readonly onSigned?: (head: LedgerCheckpoint) => void;
}

interface HeadRow {
  readonly treeSize: number;
  readonly rootHash: Uint8Array;
  readonly note: string;
  readonly signedAt: Date;
}

/** Leaves re-derived per query while checking the nodes written since the last signed head. */
const VERIFY_CHUNK = 10_000;
/** Signing happens under the log row lock, like an append (see pg-ledger APPEND_TX). */
const ADVANCE_TX = { maxWait: 15_000, timeout: 60_000 } as const;

/** `ledger_heads` on PostgreSQL/PGlite. Holds the log signing key in an ES-private field. */
export class PgLogHeads implements LogHeads {
  readonly #signer: NoteSigner;
  readonly #publicKey: string;
  readonly #verifierKey: string;
  // Only what is not secret is kept in ordinary fields: the seed lives in #signer alone.
  private readonly origin: string;
  private readonly clock: Clock;
  private readonly logger: Logger | undefined;
  private readonly onSigned: ((head: LedgerCheckpoint) => void) | undefined;

  constructor(
    private readonly prisma: PrismaClient,
    options: LogHeadOptions,
  ) {
    this.origin = options.origin;
    this.clock = options.clock;
    this.logger = options.logger;
    this.onSigned = options.onSigned;
    this.#signer = { name: options.origin, seed: Uint8Array.from(options.seed) };
    const publicKey = publicKeyOf(this.#signer.seed);
    this.#publicKey = bytesToBase64(publicKey);
    this.#verifierKey = formatVerifierKey(options.origin, publicKey);
  }

  async latest(logId: string): Promise<LedgerCheckpoint | null> {
    return (await this.stored(logId)).head;
  }

  /**
   * The stored head and the committed size of the log, from one statement (so a concurrent
   * append cannot make the head look larger than the log). Never signs. NOT_FOUND for an unknown log.
   */
  async stored(logId: string): Promise<{ size: number; head: LedgerCheckpoint | null }> {
    const logSeq = parseLedgerId(logId);
    const rows = await this.prisma.$queryRaw<{ size: number; tree_size: number | null; root_hash: Uint8Array | null; note: string | null; signed_at: Date | null }[]>`
      SELECT g.tree_size AS size, h.tree_size, h.root_hash, h.note, h.signed_at
      FROM ledger_logs g LEFT JOIN ledger_heads h ON h.log_seq = g.seq WHERE g.seq = ${logSeq}`;
    const row = rows[0];
    if (!row) throw new AppError('NOT_FOUND', 'ledger log not found');
    const size = Number(row.size);
    if (row.tree_size === null) return { size, head: null };
    return { size, head: this.toCheckpoint(logId, { treeSize: Number(row.tree_size), rootHash: row.root_hash!, note: row.note!, signedAt: row.signed_at! }) };
  }

  async advance(logId: string): Promise<LedgerCheckpoint> {
    const checkpoint = await retryTransaction(() => this.prisma.$transaction((tx) => this.advanceIn(tx, logId), ADVANCE_TX));
    this.announce(checkpoint);
    return checkpoint;
  }

  /**
   * `advance` inside the caller's transaction (a sequencer batch signs the head it grew in the
   * same transaction: one commit, one disk flush). The head and its anchor outbox row commit or
   * roll back with the batch. The caller calls `announce` after its commit.
   */
  async advanceIn(tx: Prisma.TransactionClient, logId: string): Promise<LedgerCheckpoint> {
    const logSeq = parseLedgerId(logId);
    // The log row lock: no append changes the tree while it is checked and signed, and two
    // signers of one log take turns (the second finds the head already advanced). A batch
    // that appended already holds it.
    const locked = await tx.$queryRaw<{ tree_size: number }[]>`SELECT tree_size FROM ledger_logs WHERE seq = ${logSeq} FOR UPDATE`;
    if (!locked[0]) throw new AppError('NOT_FOUND', 'ledger log not found');
    const size = Number(locked[0].tree_size);
    const stored = await tx.ledgerHead.findUnique({ where: { logSeq } });
    if (stored && stored.treeSize > size) {
      throw this.refuse(logId, stored.treeSize, size, `the log has ${size} leaves, smaller than its signed head of ${stored.treeSize}`);
    }
    if (stored && stored.treeSize === size) return this.toCheckpoint(logId, stored);

    const reader = new PgNodeReader(tx, logSeq);
    const from = stored?.treeSize ?? 0;
    const root = await rootAt(size, reader);
    if (stored && from > 0) {
      const proof = await consistencyProof(from, size, reader);
      if (!verifyConsistency(from, size, proof, stored.rootHash, root)) {
        throw this.refuse(logId, from, size, `the tree of ${size} leaves is not consistent with the signed head of ${from}`);
      }
    }
    const bad = await this.checkNewNodes(tx, logSeq, from, size);
    if (bad) throw this.refuse(logId, from, size, bad);

    const signedAt = this.clock.now();
    const note = signNote(formatCheckpoint({ origin: `${this.origin}/${logId}`, size, rootHash: root }), this.#signer);
    const data = { treeSize: size, rootHash: Uint8Array.from(root), note, signedAt };
    await enqueueAnchor(tx, { logId, treeSize: size, rootHash: root, note }); // same transaction as the head (src/anchor/outbox.ts)
    const head = stored ? await tx.ledgerHead.update({ where: { logSeq }, data }) : await tx.ledgerHead.create({ data: { logSeq, ...data } });
    return this.toCheckpoint(logId, head);
  }

  /**
   * Signs the head of a log grown to `size` leaves with `root`, for the group append
   * (src/ledger/group-append.ts) only, which calls it after checking, under the log row lock, that
   * the frontier it extended folds to the stored head's root (so the new tree extends the signed
   * one) and computing every new node itself from the leaves it writes. Stores nothing: the head
   * row and its outbox row are written in the caller's statement, in its transaction.
   */
  signExtension(logId: string, size: number, root: Uint8Array): LedgerCheckpoint {
    const signedAt = this.clock.now();
    const note = signNote(formatCheckpoint({ origin: `${this.origin}/${logId}`, size, rootHash: root }), this.#signer);
    return this.toCheckpoint(logId, { treeSize: size, rootHash: root, note, signedAt });
  }

  /** The loud refusal of a log that no longer extends its signed head (group append checks). */
  integrityFailure(logId: string, signedSize: number, size: number, reason: string): AppError {
    return this.refuse(logId, signedSize, size, reason);
  }

  /** After the commit that stored `checkpoint`: tells the witness cosigner (must not block). */
  announce(checkpoint: LedgerCheckpoint): void {
    this.onSigned?.(checkpoint);
  }

  /**
   * Re-derives, from the leaf rows, every node appended since the signed head and compares it
   * with the stored one; also checks each leaf hash is H(0x00 || entryHash). Returns what is
   * wrong, or null. Linear in the growth only.
   */
  private async checkNewNodes(tx: Prisma.TransactionClient, logSeq: bigint, from: number, size: number): Promise<string | null> {
    const reader = new PgNodeReader(tx, logSeq);
    for (let start = from; start < size; start += VERIFY_CHUNK) {
      const end = Math.min(size, start + VERIFY_CHUNK);
      const leaves = await tx.ledgerLeaf.findMany({
        where: { logSeq, index: { gte: start, lt: end } },
        orderBy: { index: 'asc' },
        select: { index: true, entryHash: true, leafHash: true },
      });
      if (leaves.length !== end - start || leaves.some((l, i) => l.index !== start + i)) return `leaves ${start}..${end - 1} are incomplete`;
      const wrongLeaf = leaves.find((l) => !equalBytes(leafHash(l.entryHash), l.leafHash));
      if (wrongLeaf) return `leaf ${wrongLeaf.index} is not the hash of its entry`;
      const expected = await appendLeaves(start, leaves.map((l) => Uint8Array.from(l.leafHash)), reader);
      const stored = await reader.getNodes(expected);
      const wrongNode = expected.find((n, i) => !equalBytes(n.hash, stored[i]!));
      if (wrongNode) return `node (${wrongNode.level}, ${wrongNode.index}) does not match the leaves below it`;
    }
    return null;
  }

  /** Loud on purpose: a log that forks from its signed head means someone rewrote the database. */
  private refuse(logId: string, signedSize: number, size: number, reason: string): AppError {
    this.logger?.error(
      { logId, signedSize, size, reason },
      'LEDGER INTEGRITY FAILURE: the stored log is not an extension of its signed head; refusing to sign a new head',
    );
    return new AppError('INTERNAL', `ledger log ${logId} failed its integrity check (${reason}); refusing to sign a new head`);
  }

  private toCheckpoint(logId: string, head: HeadRow): LedgerCheckpoint {
    return {
      logId,
      origin: `${this.origin}/${logId}`,
      treeSize: head.treeSize,
      rootHash: bytesToBase64(head.rootHash),
      note: head.note,
      verifierKey: this.#verifierKey,
      publicKey: this.#publicKey,
      signedAt: head.signedAt.toISOString(),
      ...unwitnessed(),
    };
  }
}
