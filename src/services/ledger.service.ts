import { AppError, invalidInput, notFound } from '../errors';
import { base64ToBytes, bytesToBase64, hexToBytes } from '../domain/encoding';
import { leafHash, verifyInclusion } from '../domain/merkle';
import type { Actor } from '../domain/tenancy/actor';
import type { FoundEntry, Ledger, LedgerCheckpoint } from '../ledger/ledger.port';
import type { AnchorService } from '../anchor/anchor.service';
import type { AnchorStatus } from '../anchor/anchor.port';

/** An inclusion proof (RFC 9162 §2.1.3) with the signed head it was taken under. */
export interface LedgerInclusion {
  readonly logId: string;
  readonly leafIndex: number;
  readonly treeSize: number;
  /** base64 leaf hash at `leafIndex`. */
  readonly leafHash: string;
  /** base64 sibling hashes, lowest first. */
  readonly proof: string[];
  /** The current signed head (its size is >= treeSize). */
  readonly checkpoint: LedgerCheckpoint;
}

/** A consistency proof (RFC 9162 §2.1.4) between two sizes, with the current signed head. */
export interface LedgerConsistency {
  readonly logId: string;
  readonly fromSize: number;
  readonly toSize: number;
  /** base64 hashes. */
  readonly proof: string[];
  readonly checkpoint: LedgerCheckpoint;
}

/** A found entry with its inclusion proof in the current signed head. */
export interface LedgerEntryProof extends FoundEntry {
  readonly logId: string;
  /** Lowercase hex of the 32-byte entry hash. */
  readonly entryHash: string;
  /** = checkpoint.treeSize. */
  readonly treeSize: number;
  readonly proof: string[];
  readonly checkpoint: LedgerCheckpoint;
}

/** Leaf hashes of [start, end) for auditors recomputing a root. */
export interface LedgerLeafRange {
  readonly logId: string;
  readonly start: number;
  readonly end: number;
  /** base64 */
  readonly leafHashes: string[];
}

const ENTRY_HASH_RE = /^[0-9a-fA-F]{64}$/;

/** Keeps `size <= checkpoint.treeSize` even when an append lands between the two reads. */
function beyondHead(field: string, size: number, checkpoint: LedgerCheckpoint): void {
  if (size > checkpoint.treeSize) {
    throw invalidInput(`${field} must not exceed the current tree size ${checkpoint.treeSize}`, [{ field, message: 'beyond the head' }]);
  }
}

/**
 * Read access to the transparency logs (ledger ids `0.0.<n>`: a DID's topicId, templateTopicId
 * and ledgerFileId).
 *
 * DECISION: ledger logs are public transparency data. Any authenticated caller, of any tenant,
 * may read any log: checkpoints, proofs, entries and leaf hashes. That is what lets a verifier
 * in another tenant (or anyone holding an exported proof) check an anchor without trusting the
 * issuer. Logs only carry hashes plus an entry `kind` and `ref`, so writers must never put
 * secrets or personal data in `ref`. Appends are not exposed here: they happen inside the
 * services that own the anchored records, through the `Ledger` port.
 *
 * Every answer that a client must check carries the signed checkpoint it was computed under; the
 * checkpoint is read before the proof, so the proof always fits in it (the head only grows).
 */
export class LedgerService {
  constructor(
    private readonly ledger: Ledger,
    private readonly anchors?: AnchorService,
  ) {}

  /**
   * Anchoring of the signed head of `treeSize` (pending, anchored with its receipt re-checked on
   * the ledger, failed). NOT_FOUND for an unknown log or a size that was never a signed head.
   */
  async anchor(_actor: Actor, logId: string, treeSize: number): Promise<AnchorStatus> {
    if (!Number.isSafeInteger(treeSize) || treeSize < 0) throw invalidInput('treeSize must be a non-negative integer', [{ field: 'treeSize', message: 'non-negative integer' }]);
    await this.ledger.heads.latest(logId); // NOT_FOUND for an unknown log, INVALID_INPUT for a malformed id
    const status = this.anchors ? await this.anchors.status(logId, treeSize, { check: true }) : null;
    if (!status) throw notFound('anchor of this tree size (no signed head of that size)');
    return status;
  }

  checkpoint(_actor: Actor, logId: string): Promise<LedgerCheckpoint> {
    return this.ledger.checkpoint(logId);
  }

  /** treeSize defaults to the current head, so the proof verifies against `checkpoint.rootHash`. */
  async inclusionProof(_actor: Actor, logId: string, leafIndex: number, treeSize?: number | null): Promise<LedgerInclusion> {
    // A size the caller learned elsewhere (another instance) must not be refused by a cached head.
    const checkpoint = await this.ledger.checkpoint(logId, Math.max(typeof treeSize === 'number' ? treeSize : 0, 0));
    const size = treeSize ?? checkpoint.treeSize;
    beyondHead('treeSize', size, checkpoint);
    const proof = await this.ledger.inclusionProof(logId, leafIndex, size);
    const [leafHash] = await this.ledger.leafHashes(logId, leafIndex, leafIndex + 1);
    return { logId, leafIndex, treeSize: size, leafHash: leafHash as string, proof, checkpoint };
  }

  /** `to` defaults to the current head, so the proof ends at `checkpoint.rootHash`. */
  async consistencyProof(_actor: Actor, logId: string, from: number, to?: number | null): Promise<LedgerConsistency> {
    const checkpoint = await this.ledger.checkpoint(logId, Math.max(typeof to === 'number' ? to : 0, 0));
    const toSize = to ?? checkpoint.treeSize;
    beyondHead('to', toSize, checkpoint);
    const proof = await this.ledger.consistencyProof(logId, from, toSize);
    return { logId, fromSize: from, toSize, proof, checkpoint };
  }

  /** The entry with this hash (64 hex digits) and its inclusion proof; NOT_FOUND when absent. */
  async entry(_actor: Actor, logId: string, entryHashHex: string): Promise<LedgerEntryProof> {
    if (typeof entryHashHex !== 'string' || !ENTRY_HASH_RE.test(entryHashHex)) {
      throw invalidInput('entryHash must be 64 hex digits (a SHA-256 hash)', [{ field: 'entryHash', message: '64 hex digits' }]);
    }
    const entryHash = hexToBytes(entryHashHex, 'entryHash');
    const found = await this.ledger.findEntry(logId, entryHash);
    if (!found) throw notFound('ledger entry');
    // A head that includes the entry (found before, so a stored head covering it exists unless a
    // crash left the log beyond its head: then 503 while it is repaired).
    const checkpoint = await this.ledger.checkpoint(logId, found.leafIndex + 1);
    const proof = await this.ledger.inclusionProof(logId, found.leafIndex, checkpoint.treeSize);
    // The service never calls an entry anchored unless its own proof verifies against the signed
    // head from the hash the caller asked for: a leaf row rewritten in the database fails here.
    const anchored =
      found.leafHash === bytesToBase64(leafHash(entryHash)) &&
      verifyInclusion(leafHash(entryHash), found.leafIndex, checkpoint.treeSize, proof.map((p) => base64ToBytes(p)), base64ToBytes(checkpoint.rootHash));
    if (!anchored) throw new AppError('INTERNAL', `ledger log ${logId} failed its integrity check: the stored entry does not verify against the signed head`);
    return { ...found, logId, entryHash: entryHashHex.toLowerCase(), treeSize: checkpoint.treeSize, proof, checkpoint };
  }

  /** Leaf hashes of [start, end), at most 10 000 per call, end at most the current head. */
  async leaves(_actor: Actor, logId: string, start: number, end: number): Promise<LedgerLeafRange> {
    return { logId, start, end, leafHashes: await this.ledger.leafHashes(logId, start, end) };
  }
}
