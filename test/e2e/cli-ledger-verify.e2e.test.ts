import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { verifyLedger } from '../../src/cli/ledger-verify';
import { progress } from '../../src/cli/progress';
import { leafHash } from '../../src/domain/merkle';
import { deriveLedgerSeed } from '../../src/ledger';
import { cliDatabase } from '../support/cli-database';
import { fbParty } from '../support/family-b-fixtures';
import { runCli } from '../support/process';

const cli = cliDatabase();

interface Line {
  ok: boolean;
  log?: string;
  problem?: string;
  logs?: number;
  leaves?: number;
  heads?: number;
}
/** A witness as C2SP tlog-cosignature describes it (cosignature/v1, Ed25519), written out here from the spec. */
function testWitness(name: string): { vkey: string; cosign(body: string, time: number): string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const keyId = createHash('sha256').update(Buffer.concat([Buffer.from(`${name}\n`), Buffer.of(0x04), raw])).digest().subarray(0, 4);
  return {
    vkey: `${name}+${keyId.toString('hex')}+${Buffer.concat([Buffer.of(0x04), raw]).toString('base64')}`,
    cosign(body, time) {
      const ts = Buffer.alloc(8);
      ts.writeBigUInt64BE(BigInt(time));
      const sig = sign(null, Buffer.from(`cosignature/v1\ntime ${time}\n${body}`), privateKey);
      return `\u2014 ${name} ${Buffer.concat([keyId, ts, sig]).toString('base64')}\n`;
    },
  };
}

const lines = (stdout: string): Line[] => stdout.trim().split('\n').map((l) => JSON.parse(l) as Line);

describe('credgate ledger verify', () => {
  let logSeq = '';

  beforeAll(async () => {
    const server = await cli.startServer();
    try {
      const party = await fbParty(server, 'REST');
      for (let i = 0; i < 5; i++) await party.issue();
      // Reads sign heads lazily: make sure every log has one to check.
      const logs = await server.app.db.sql.query<{ seq: string }>('SELECT seq::text AS seq FROM ledger_logs WHERE tree_size > 0 ORDER BY seq');
      for (const l of logs) await server.app.ledger.checkpoint(`0.0.${l.seq}`);
      const credentialLog = await server.app.db.sql.query<{ seq: string }>('SELECT log_seq::text AS seq FROM ledger_leaves GROUP BY log_seq HAVING count(*) >= 5 ORDER BY log_seq LIMIT 1');
      logSeq = credentialLog[0]!.seq;
    } finally {
      await server.close();
    }
  });

  test('an intact ledger passes: every log, leaf and head checked, exit 0', () => {
    const r = runCli(['ledger', 'verify'], cli.env);
    expect(r.stderr).not.toMatch(/problem/);
    expect(r.status).toBe(0);
    const summary = lines(r.stdout).at(-1)!;
    expect(summary).toMatchObject({ ok: true, problems: 0 });
    expect(summary.logs).toBeGreaterThanOrEqual(2);
    expect(summary.leaves).toBeGreaterThanOrEqual(3);
    expect(summary.heads).toBeGreaterThanOrEqual(1);
    // Not a terminal: progress as lines on stderr, ending at 100 %.
    expect(r.stderr).toMatch(/ledger verify: 100% \(\d+\/\d+\)/);
  });

  test('any chunk size gives the same verdict: the tree is carried across chunk boundaries', async () => {
    const server = await cli.startServer();
    try {
      const seed = deriveLedgerSeed(Buffer.from(cli.env['CREDGATE_MASTER_KEY']!, 'hex'));
      const written: string[] = [];
      const reports = [];
      for (const chunk of [1, 2, 3, 4, 7]) reports.push(await verifyLedger(server.app.db, seed, new Map(), progress({ write: (s: string) => written.push(s) }, 50), chunk));
      for (const r of reports) expect(r).toEqual(reports.at(-1));
      // The witness migration made the table; no witness has cosigned here.
      expect(reports[0]).toMatchObject({ problems: [], cosignatures: { verified: 0, unchecked: 0 } });
      expect(reports[0]!.leaves).toBeGreaterThanOrEqual(5);
      // Not a terminal: lines (0 %, then each 50 % step, ending at 100 %), at most 3 per run.
      expect(written.filter((w) => w.startsWith('ledger verify: 100%'))).toHaveLength(5);
      expect(written.filter((w) => w.startsWith('ledger verify: 0%'))).toHaveLength(5);
      expect(written.length).toBeLessThanOrEqual(15);
      expect(written.every((w) => /^ledger verify: \d+% \(\d+\/\d+\)\n$/.test(w))).toBe(true);
    } finally {
      await server.close();
    }
  });

  test('witness cosignatures (when the database has them) are checked against the recomputed tree', async () => {
    const honest = testWitness('witness.example/a');
    const liar = testWitness('witness.example/b');
    const server = await cli.startServer();
    try {
      const sql = server.app.db.sql;
      // The witness cosigning table as its migration creates it (a no-op where that migration ran).
      await sql.exec(`CREATE TABLE IF NOT EXISTS "ledger_cosignatures" ("log_seq" BIGINT NOT NULL, "witness" TEXT NOT NULL, "tree_size" INTEGER NOT NULL, "line" TEXT NOT NULL,
        "cosigned_at" TIMESTAMPTZ(3) NOT NULL, CONSTRAINT "ledger_cosignatures_pkey" PRIMARY KEY ("log_seq","witness","tree_size"))`);
      const [head] = await sql.query<{ tree_size: number; note: string }>('SELECT tree_size, note FROM ledger_heads WHERE log_seq = $1', [logSeq]);
      const body = head!.note.slice(0, head!.note.indexOf('\n\n') + 1);
      const forked = body.replace(/\n([A-Za-z0-9+/=]{44})\n$/, `\n${Buffer.alloc(32, 7).toString('base64')}\n`);
      expect(forked).not.toBe(body);
      const insert = 'INSERT INTO ledger_cosignatures (log_seq, witness, tree_size, line, cosigned_at) VALUES ($1, $2, $3, $4, now())';
      await sql.query(insert, [logSeq, 'witness.example/a', head!.tree_size, honest.cosign(body, 1_700_000_000)]);
      await sql.query(insert, [logSeq, 'witness.example/b', head!.tree_size, liar.cosign(forked, 1_700_000_001)]);
    } finally {
      await server.close();
    }
    const both = runCli(['ledger', 'verify', '--witness-keys', `${honest.vkey},${liar.vkey}`], cli.env);
    expect(both.status).toBe(1);
    const out = lines(both.stdout);
    expect(out.filter((l) => l.problem !== undefined)).toEqual([{ ok: false, log: `0.0.${logSeq}`, problem: expect.stringMatching(/^cosignature by witness\.example\/b at size \d+ does not verify$/) }]);
    expect(out.at(-1)).toMatchObject({ ok: false, cosignatures: { verified: 1, unchecked: 0 } });

    // Keys from the service's own setting; a witness without a key is reported as unchecked, not as failed.
    const server2 = await cli.startServer();
    try {
      await server2.app.db.sql.query("DELETE FROM ledger_cosignatures WHERE witness = 'witness.example/b'");
    } finally {
      await server2.close();
    }
    const configured = runCli(['ledger', 'verify'], { ...cli.env, CREDGATE_WITNESSES: `${honest.vkey}@http://127.0.0.1:1` });
    expect(lines(configured.stdout).at(-1)).toMatchObject({ ok: true, cosignatures: { verified: 1, unchecked: 0 } });
    expect(configured.status).toBe(0);
    const keyless = runCli(['ledger', 'verify'], cli.env);
    expect(keyless.status).toBe(0);
    expect(lines(keyless.stdout).at(-1)).toMatchObject({ ok: true, cosignatures: { verified: 0, unchecked: 1 } });
    expect(keyless.stderr).toMatch(/1 cosignature\(s\) not checked/);
  });

  test('a leaf rewritten by a superuser (triggers bypassed) fails, naming the log and the index', async () => {
    const server = await cli.startServer();
    try {
      const forged = createHash('sha256').update('forged entry').digest();
      await server.app.db.sql.transaction(async (tx) => {
        await tx.exec('SET LOCAL session_replication_role = replica');
        await tx.query('UPDATE ledger_leaves SET entry_hash = $3, leaf_hash = $4 WHERE log_seq = $1 AND index = $2', [logSeq, 1, forged, Buffer.from(leafHash(forged))]);
      });
    } finally {
      await server.close();
    }
    const r = runCli(['ledger', 'verify'], cli.env);
    expect(r.status).toBe(1);
    const out = lines(r.stdout);
    const problems = out.filter((l) => l.problem !== undefined);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((p) => p.log === `0.0.${logSeq}`)).toBe(true);
    expect(problems.map((p) => p.problem)).toEqual(expect.arrayContaining([expect.stringMatching(/^leaf 1: /), expect.stringMatching(/root is not the root/)]));
    expect(out.at(-1)).toMatchObject({ ok: false });
    expect(r.stderr).toContain(`log 0.0.${logSeq}`);
  });

  test('--help describes the command without opening the database', () => {
    const r = runCli(['ledger', 'verify', '--help'], {});
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/usage: credgate ledger verify/);
  });
});
