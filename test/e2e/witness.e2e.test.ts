import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sha256 } from '@noble/hashes/sha2.js';
import { type NodeReader, type NoteVerifier, appendLeaf, leafHash, openCheckpoint, parseVerifierKey } from '../../src/domain/merkle';
import type { LedgerCheckpoint } from '../../src/ledger/ledger.port';
import { noteBody, parseWitnessVerifierKey, signatureLines, verifyCosignature } from '../../src/witness/cosignature';
import { FB_VALUES, fbParty, fbTransports } from '../support/family-b-fixtures';
import { unwrap } from '../support/family-a-fixtures';
import { useTestServer } from '../support/harness';
import { request } from '../support/http';
import { gqlOutcome } from '../support/transports';
import { type RunningWitness, logVerifierKey, spawnWitness } from '../support/witness-process';

/**
 * A deployment with two independent witnesses (spawned `credgate witness` processes) and a quorum
 * of 2. Honest heads collect both cosignatures; after an operator rewrites a leaf in the database
 * and has the service sign a new head over the rewritten tree, the witnesses refuse it and
 * verification reports the missing quorum, through REST and GraphQL alike.
 */
type Json = Record<string, any>;

const masterKey = randomBytes(32);
const logKey: NoteVerifier = parseVerifierKey(logVerifierKey(masterKey));
let dir: string;
const witnesses: RunningWitness[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'credgate-witnesses-'));
  for (const name of ['witness.test/w1', 'witness.test/w2']) witnesses.push(await spawnWitness({ logKeys: [logVerifierKey(masterKey)], dir, name }));
});
afterAll(async () => {
  for (const w of witnesses) await w.stop();
  rmSync(dir, { recursive: true, force: true });
});

// Declared after the witnesses' beforeAll, so their keys and URLs exist when the server starts.
const server = useTestServer(() => ({
  masterKey,
  env: { witness: { witnesses: witnesses.map(({ verifierKey, name, url }) => ({ verifierKey, name, url })), quorum: 2 } },
}));

type CheckpointRead = (key: string, logId: string) => Promise<LedgerCheckpoint>;
const reads: [string, CheckpointRead][] = [
  [
    'REST',
    async (key, logId) => {
      const res = await request(server.baseUrl, 'GET', `/ledger/${logId}/checkpoint`, { headers: { 'X-API-Key': key } });
      expect(res.status).toBe(200);
      return res.json as LedgerCheckpoint;
    },
  ],
  ['GraphQL', async (key, logId) => unwrap(await gqlOutcome(async () => (await server.sdk(key).ledgerCheckpoint({ logId })).ledgerCheckpoint as LedgerCheckpoint))],
];

/** Both transports serve the same checkpoint; returns it. */
async function readCheckpoint(key: string, logId: string): Promise<LedgerCheckpoint> {
  const [rest, graphql] = [await reads[0]![1](key, logId), await reads[1]![1](key, logId)];
  expect(graphql).toEqual(rest);
  return rest;
}

/** The witnesses whose cosignature line in `note` verifies over its body. */
function cosignersOf(note: string): string[] {
  const body = noteBody(note)!;
  return witnesses.filter((w) => signatureLines(note).some((l) => verifyCosignature(body, l, parseWitnessVerifierKey(w.verifierKey)))).map((w) => w.name);
}

/**
 * What an operator with superuser access can do: rewrite leaf `index` (triggers off), recompute
 * every node above it so the tree is self-consistent, and remove the stored head and what the
 * log recorded about its witnesses, so the service signs the rewritten tree as if it were new.
 */
async function rewriteHistory(logId: string, index: number): Promise<void> {
  const seq = logId.slice('0.0.'.length);
  await server.app.db.sql.transaction(async (tx) => {
    await tx.exec('SET LOCAL session_replication_role = replica');
    const leaves = await tx.query<{ index: number; leaf_hash: Uint8Array }>('SELECT index, leaf_hash FROM ledger_leaves WHERE log_seq = $1 ORDER BY index', [seq]);
    const forged = sha256(new TextEncoder().encode(`forged ${randomBytes(4).toString('hex')}`));
    await tx.query('UPDATE ledger_leaves SET entry_hash = $3, leaf_hash = $4 WHERE log_seq = $1 AND index = $2', [seq, index, Buffer.from(forged), Buffer.from(leafHash(forged))]);
    const nodes = new Map<string, Uint8Array>();
    const reader: NodeReader = { getNodes: async (ids) => ids.map((id) => nodes.get(`${id.level}/${id.index}`)!) };
    for (const [i, l] of leaves.entries()) {
      for (const n of await appendLeaf(i, i === index ? leafHash(forged) : Uint8Array.from(l.leaf_hash), reader)) nodes.set(`${n.level}/${n.index}`, n.hash);
    }
    for (const [id, hash] of nodes) {
      const [level, i] = id.split('/').map(Number);
      await tx.query('UPDATE ledger_nodes SET hash = $4 WHERE log_seq = $1 AND level = $2 AND index = $3', [seq, level, i, Buffer.from(hash)]);
    }
    for (const table of ['ledger_heads', 'ledger_cosignatures', 'ledger_witness_state']) await tx.query(`DELETE FROM ${table} WHERE log_seq = $1`, [seq]);
  });
}

describe.each(['REST', 'GraphQL'])('witnessed checkpoints through %s', (name) => {
  let party: Awaited<ReturnType<typeof fbParty>>;
  let first: Json;
  let second: Json;
  let logId: string;
  let honest: LedgerCheckpoint;

  beforeAll(async () => {
    party = await fbParty(server, name);
    first = await party.issue();
    second = await party.issue({ ...FB_VALUES, employeeNo: 8 });
  });

  test('an issued credential is cosigned by both witnesses; the served note verifies with the log key and both witness keys', async () => {
    // The first read signs the grown head; cosigning runs in the background, never in the request.
    logId = unwrap(await party.t.verify(party.keys.verifier, first)).anchor!.logId;
    await server.app.cosigner.idle();

    honest = await readCheckpoint(party.keys.verifier, logId);
    expect(honest).toMatchObject({ witnessCosignatures: 2, witnessQuorum: 2 });
    expect(honest.witnesses).toEqual(
      witnesses.map((w) => ({ name: w.name, verifierKey: w.verifierKey, cosigned: true, cosignedAt: expect.any(String), witnessedSize: honest.treeSize, lastError: null })),
    );
    const opened = openCheckpoint(honest.note, logKey, honest.origin);
    expect(opened).toMatchObject({ verified: true, checkpoint: { size: honest.treeSize } });
    expect(cosignersOf(honest.note)).toEqual(['witness.test/w1', 'witness.test/w2']);
    // Exactly the log's signature plus one line per witness.
    expect(signatureLines(honest.note)).toHaveLength(3);

    const v = unwrap(await party.t.verify(party.keys.verifier, second));
    expect(v.verified).toBe(true);
    expect(v.checks).toContainEqual({ check: 'witnesses', ok: true, detail: '2 of 2 required witness cosignatures verified' });
    expect(v.anchor).toMatchObject({ logId, treeSize: honest.treeSize, checkpoint: honest.note, witnessCosignatures: 2, witnessQuorum: 2 });
  });

  test('THE ATTACK: a leaf rewritten in the database gets a new log-signed head, but no witness cosigns it; verification reports the missing quorum', async () => {
    const firstIndex = unwrap(await party.t.verify(party.keys.verifier, first)).anchor!.leafIndex;
    await rewriteHistory(logId, firstIndex);
    // The operator's service signs a head over the rewritten, grown tree (its own checks pass: the
    // stored head it would have compared against is gone).
    await server.app.ledger.append(logId, { entryHash: sha256(new TextEncoder().encode(`after ${name}`)), kind: 'test', ref: 'after' });
    // One read only: it starts the cosigning, so a second read could already see its progress.
    const forgedRead = await reads[0]![1](party.keys.verifier, logId);
    await server.app.cosigner.idle();

    const forged = await readCheckpoint(party.keys.verifier, logId);
    expect(forged.treeSize).toBe(honest.treeSize + 1);
    expect(forged.note).toBe(forgedRead.note);
    expect(openCheckpoint(forged.note, logKey, forged.origin).verified).toBe(true);
    expect(forged).toMatchObject({ witnessCosignatures: 0, witnessQuorum: 2 });
    expect(cosignersOf(forged.note)).toEqual([]);
    for (const w of forged.witnesses) {
      expect(w).toMatchObject({ cosigned: false, cosignedAt: null });
      // The log forgot the witnesses' sizes; they did not: 409 names it, and the proof from there fails.
      expect(w.lastError).toMatch(/^422: /);
      expect(w.witnessedSize).toBe(honest.treeSize);
    }

    // The second credential is still included in the rewritten tree, so only the witnesses catch it.
    const v = unwrap(await party.t.verify(party.keys.verifier, second));
    expect(v.checks).toContainEqual({ check: 'ledger', ok: true });
    expect(v.checks).toContainEqual({ check: 'witnesses', ok: false, detail: '0 of 2 required witness cosignatures verified (the head is not, or not yet, witnessed)' });
    expect(v.verified).toBe(false);
    expect(v.anchor).toMatchObject({ treeSize: forged.treeSize, witnessCosignatures: 0, witnessQuorum: 2 });
    // The honest head a client kept still carries both cosignatures: evidence of the fork.
    expect(cosignersOf(honest.note)).toEqual(['witness.test/w1', 'witness.test/w2']);
  });
});

test('a witness that is down leaves new heads short of the quorum, reported on both transports; issuance does not wait for it', async () => {
  const party = await fbParty(server, 'REST');
  const credential = await party.issue();
  const logId = unwrap(await party.t.verify(party.keys.verifier, credential)).anchor!.logId;
  await server.app.cosigner.idle();
  const [w1, w2] = witnesses as [RunningWitness, RunningWitness];
  await w2.stop();

  // Issuing while a witness is down answers as usual.
  const next = await party.issue({ ...FB_VALUES, employeeNo: 9 });
  await reads[0]![1](party.keys.verifier, logId);
  // The first failed attempt is recorded at once; later ones back off (up to 30 s), so poll for it.
  let cp = await reads[0]![1](party.keys.verifier, logId);
  for (let i = 0; i < 200 && !(cp.witnesses.find((w) => w.name === w2.name)?.lastError && cp.witnessCosignatures === 1); i++) {
    await new Promise((r) => setTimeout(r, 50));
    cp = await reads[0]![1](party.keys.verifier, logId);
  }
  const served = await readCheckpoint(party.keys.verifier, logId);
  expect(served).toMatchObject({ treeSize: cp.treeSize, witnessCosignatures: 1, witnessQuorum: 2 });
  expect(served.witnesses.find((w) => w.name === w1.name)).toMatchObject({ cosigned: true, witnessedSize: cp.treeSize, lastError: null });
  expect(served.witnesses.find((w) => w.name === w2.name)).toMatchObject({ cosigned: false, witnessedSize: cp.treeSize - 1, lastError: expect.stringMatching(/^request failed: /) });
  expect(cosignersOf(served.note)).toEqual([w1.name]);
  for (const t of [party.t, fbTransports(server, 'GraphQL').t]) {
    const v = unwrap(await t.verify(party.keys.verifier, next));
    expect(v.checks).toContainEqual({ check: 'witnesses', ok: false, detail: '1 of 2 required witness cosignatures verified (the head is not, or not yet, witnessed)' });
    expect(v.anchor).toMatchObject({ witnessCosignatures: 1, witnessQuorum: 2 });
  }
});
