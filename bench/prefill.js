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

/**
 * One transaction per chunk. The hashes travel as one concatenated bytea each (node-postgres sends
 * a Buffer parameter in binary) and are cut into 32-byte rows by the server: much cheaper than a
 * bytea[] literal of thousands of hex strings.
 */
async function insertChunk(client, logSeq, { leaves, nodes }) {
  const cat = (list, key) => Buffer.concat(list.map((x) => x[key]));
  await client.query('BEGIN');
  try {
    await client.query(
      `INSERT INTO ledger_leaves (log_seq, index, entry_hash, leaf_hash, kind, ref)
       SELECT $1, $2::int + g, substring($3::bytea FROM g * 32 + 1 FOR 32), substring($4::bytea FROM g * 32 + 1 FOR 32), 'bench-prefill', ''
       FROM generate_series(0, $5::int - 1) AS g`,
      [logSeq, leaves[0].index, cat(leaves, 'entryHash'), cat(leaves, 'leafHash'), leaves.length],
    );
    await client.query(
      `INSERT INTO ledger_nodes (log_seq, level, index, hash)
       SELECT $1, t.lv, t.ix, substring($4::bytea FROM (t.ord - 1)::int * 32 + 1 FOR 32)
       FROM unnest($2::int[], $3::int[]) WITH ORDINALITY AS t(lv, ix, ord)`,
      [logSeq, nodes.map((n) => n.level), nodes.map((n) => n.index), cat(nodes, 'hash')],
    );
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK');
    throw e;
  }
}

/**
 * A NodeReader that answers from the tree's right edge kept in memory (the only nodes an append
 * reads), falling back to the database for the edge the log had before the prefill. Keeping the
 * edge in memory lets the next chunk be hashed while the previous one is still being inserted.
 */
function rightEdgeReader(merkle, fallback) {
  let edge = new Map();
  const key = (n) => `${n.level}/${n.index}`;
  return {
    async getNodes(ids) {
      const missing = ids.filter((id) => !edge.has(key(id)));
      const fetched = await fallback.getNodes(missing);
      missing.forEach((id, i) => edge.set(key(id), fetched[i]));
      return ids.map((id) => edge.get(key(id)));
    },
    /** After appending `created` to reach `size` leaves, keep only the new right edge. */
    advance(size, created) {
      const all = new Map([...edge, ...created.map((n) => [key(n), n.hash])]);
      edge = new Map(merkle.rootTiles(size).map((id) => [key(id), all.get(key(id))]).filter(([, h]) => h !== undefined));
    },
  };
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
  const dbReader = pgNodeReader(client, logSeq);
  const reader = rightEdgeReader(merkle, dbReader);
  let inserting = Promise.resolve();
  for (let size = from; size < target; ) {
    const n = Math.min(CHUNK, target - size);
    const hashes = Array.from({ length: n }, (_, i) => prefillEntryHash(logSeq, size + i));
    const chunk = await prefillChunk(merkle, size, hashes, reader);
    size += n;
    reader.advance(size, chunk.nodes);
    await inserting; // one chunk in flight: hashing the next overlaps the server's insert of this one
    const reached = size;
    inserting = insertChunk(client, logSeq, chunk).then(() => onProgress(reached));
  }
  await inserting;
  const size = Math.max(from, target);
  if (size > from) await client.query('UPDATE ledger_logs SET tree_size = $2 WHERE seq = $1', [logSeq, size]);
  await signHead(client, merkle, logId, logSeq, size, signer, dbReader);
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

module.exports = { CHUNK, prefillEntryHash, prefillChunk, rightEdgeReader, prefillLog };
