import { createHash } from 'node:crypto';
import { leafHash } from '../../src/domain/merkle';
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
const lines = (stdout: string): Line[] => stdout.trim().split('\n').map((l) => JSON.parse(l) as Line);

describe('credgate ledger verify', () => {
  let logSeq = '';

  beforeAll(async () => {
    const server = await cli.startServer();
    try {
      const party = await fbParty(server, 'REST');
      for (let i = 0; i < 3; i++) await party.issue();
      // Reads sign heads lazily: make sure every log has one to check.
      const logs = await server.app.db.sql.query<{ seq: string }>('SELECT seq::text AS seq FROM ledger_logs WHERE tree_size > 0 ORDER BY seq');
      for (const l of logs) await server.app.ledger.checkpoint(`0.0.${l.seq}`);
      const credentialLog = await server.app.db.sql.query<{ seq: string }>('SELECT log_seq::text AS seq FROM ledger_leaves GROUP BY log_seq HAVING count(*) >= 3 ORDER BY log_seq LIMIT 1');
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
