'use strict';
/**
 * Pre-fills an issuer's ledger log to 10^3…10^6 leaves by bulk SQL, so the bench can show how
 * issuance and verification cost grow with the log, without issuing a million credentials.
 *
 * The tree is real: every leaf hash and every perfect node comes from the project's own Merkle
 * code (`leafHash`, `appendLeaves`, the same functions the ledger's append path runs), the rows are
 * inserted in chunks with multi-row INSERTs (the append-only triggers forbid UPDATE and DELETE on
 * leaves and nodes, not INSERT), `tree_size` grows once at the end, and a head over the new size
 * is signed with the deployment's log key exactly as `PgLogHeads.advance` signs one (same origin,
 * same note format), so the service accepts and extends the log. Run it while the service is
 * stopped: nothing may append to the log meanwhile.
 */
const crypto = require('node:crypto');

/** Leaves inserted per statement group (and per transaction). */
const CHUNK = 20_000;

/** The entry hash of prefilled leaf `i` of log `logSeq`: distinct per log and leaf, like real entries. */
function prefillEntryHash(logSeq, i) {
  return crypto.createHash('sha256').update(`credgate-bench-prefill:${logSeq}:${i}`).digest();
}

/**
 * The rows that appending `entryHashes` to a tree of `size` leaves creates: the leaves (index,
 * entry hash, RFC 9162 leaf hash) and every perfect node they complete, computed with the
 * project's merkle module. `reader` supplies the stored right-edge nodes (a NodeReader).
 */
async function prefillChunk(merkle, size, entryHashes, reader) {
  const leaves = entryHashes.map((entryHash, i) => ({ index: size + i, entryHash, leafHash: merkle.leafHash(entryHash) }));
  const nodes = await merkle.appendLeaves(size, leaves.map((l) => l.leafHash), reader);
  return { leaves, nodes };
}

/** A NodeReader over `ledger_nodes` of one log through a `pg` client: one query per call. */
function pgNodeReader(client, logSeq) {
  return {
    async getNodes(ids) {
      if (ids.length === 0) return [];
      const { rows } = await client.query(
        `SELECT n.level, n.index, n.hash FROM ledger_nodes n
         JOIN unnest($2::int[], $3::int[]) AS want(level, index) ON n.level = want.level AND n.index = want.index
         WHERE n.log_seq = $1`,
        [logSeq, ids.map((x) => x.level), ids.map((x) => x.index)],
      );
      const byId = new Map(rows.map((r) => [`${r.level}/${r.index}`, r.hash]));
      return ids.map(({ level, index }) => {
        const hash = byId.get(`${level}/${index}`);
        if (!hash) throw new Error(`prefill: node (${level}, ${index}) of log ${logSeq} is missing`);
        return new Uint8Array(hash);
      });
    },
  };
}

async function insertChunk(client, logSeq, { leaves, nodes }) {
  await client.query('BEGIN');
  try {
    await client.query(
      `INSERT INTO ledger_leaves (log_seq, index, entry_hash, leaf_hash, kind, ref)
       SELECT $1, i, e, l, 'bench-prefill', '' FROM unnest($2::int[], $3::bytea[], $4::bytea[]) AS t(i, e, l)`,
      [logSeq, leaves.map((l) => l.index), leaves.map((l) => Buffer.from(l.entryHash)), leaves.map((l) => Buffer.from(l.leafHash))],
    );
    await client.query(
      `INSERT INTO ledger_nodes (log_seq, level, index, hash)
       SELECT $1, lv, ix, h FROM unnest($2::int[], $3::int[], $4::bytea[]) AS t(lv, ix, h)`,
      [logSeq, nodes.map((n) => n.level), nodes.map((n) => n.index), nodes.map((n) => Buffer.from(n.hash))],
    );
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK');
    throw e;
  }
}

/**
 * Grows log `logId` (`0.0.<seq>`) to `target` leaves and signs its head. `signer` is
 * { origin, seed }: the ledger origin (`<public host>/ledger`) and the log key seed
 * (deriveLedgerSeed of the master key). Returns { added, size, ms }.
 */
async function prefillLog(client, merkle, logId, target, signer, onProgress = () => {}) {
  const started = performance.now();
  const logSeq = logId.slice('0.0.'.length);
  const { rows } = await client.query('SELECT tree_size FROM ledger_logs WHERE seq = $1', [logSeq]);
  if (!rows[0]) throw new Error(`prefill: no ledger log ${logId}`);
  const from = Number(rows[0].tree_size);
  const reader = pgNodeReader(client, logSeq);
  for (let size = from; size < target; ) {
    const n = Math.min(CHUNK, target - size);
    const hashes = Array.from({ length: n }, (_, i) => prefillEntryHash(logSeq, size + i));
    await insertChunk(client, logSeq, await prefillChunk(merkle, size, hashes, reader));
    size += n;
    onProgress(size);
  }
  const size = Math.max(from, target);
  if (size > from) await client.query('UPDATE ledger_logs SET tree_size = $2 WHERE seq = $1', [logSeq, size]);
  await signHead(client, merkle, logId, logSeq, size, signer, reader);
  return { added: size - from, size, ms: performance.now() - started };
}

/** Signs and stores the head of `size` leaves, as PgLogHeads.advance does (the triggers allow only a larger head). */
async function signHead(client, merkle, logId, logSeq, size, signer, reader) {
  const root = await merkle.rootAt(size, reader);
  const note = merkle.signNote(merkle.formatCheckpoint({ origin: `${signer.origin}/${logId}`, size, rootHash: root }), { name: signer.origin, seed: signer.seed });
  await client.query(
    `INSERT INTO ledger_heads (log_seq, tree_size, root_hash, note, signed_at) VALUES ($1, $2, $3, $4, now())
     ON CONFLICT (log_seq) DO UPDATE SET tree_size = EXCLUDED.tree_size, root_hash = EXCLUDED.root_hash, note = EXCLUDED.note, signed_at = EXCLUDED.signed_at
     WHERE ledger_heads.tree_size < EXCLUDED.tree_size`,
    [logSeq, size, Buffer.from(root), note],
  );
}

module.exports = { CHUNK, prefillEntryHash, prefillChunk, prefillLog };
