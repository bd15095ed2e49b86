import type { Config } from '../config';
import type { Logger } from '../logging/logger';
import type { CliIo } from './commands';
import { type KeyedDatabase, openKeyedDatabase, unlock } from './keyed-database';
import { witnessKeys } from './ledger-cosignatures';
import { verifyLedger } from './ledger-verify';
import { rotateCommand } from './master-key-rotate';
import { passphraseFrom } from './archive-format';
import type { Parsed } from './parse';
import { type Progress, progress } from './progress';
import { exportTenant } from './tenant-export';
import { importTenant } from './tenant-import';

type Run = Extract<Parsed, { kind: 'run' }>;

/** Commands that work on the tables and keys directly, not through the services (see commands.ts). */
export const TABLE_COMMANDS: ReadonlySet<string> = new Set(['master-key rotate', 'ledger verify', 'export', 'import']);

/** Runs one of TABLE_COMMANDS; returns the exit code (ledger verify: 1 when it found a problem). */
export async function runTableCommand(config: Config, logger: Logger, { command, values }: Run, io: CliIo): Promise<number> {
  const bar = progress(process.stderr);
  const k = await openKeyedDatabase(config, logger);
  try {
    return await dispatch(k, config, command.name, values, io, bar);
  } finally {
    bar.finish();
    await k.close();
  }
}

async function dispatch(k: KeyedDatabase, config: Config, name: string, values: Readonly<Record<string, string | undefined>>, io: CliIo, bar: Progress): Promise<number> {
  const v = (flag: string): string => values[flag]!;
  if (name === 'master-key rotate') {
    await rotateCommand(k, config, values, io, bar);
    return 0;
  }
  const keys = await unlock(k, config);
  switch (name) {
    case 'ledger verify': {
      // Witness keys: given here, or the ones the service is configured with (witness cosigning).
      const witnesses = witnessKeys([values['witness-keys'], ...(config.witness?.witnesses ?? []).map((w) => w.verifierKey)]);
      for (const name of witnesses.bad) io.note(`ledger verify: ignoring a malformed witness key (${name || 'no name'})`);
      const report = await verifyLedger(k.db, keys.ledgerSeed, witnesses.keys, bar);
      for (const p of report.problems) io.out(JSON.stringify({ ok: false, log: p.logId, problem: p.message }));
      io.out(JSON.stringify({ ok: report.problems.length === 0, logs: report.logs, leaves: report.leaves, heads: report.heads, cosignatures: report.cosignatures, problems: report.problems.length }));
      if (report.cosignatures && report.cosignatures.unchecked > 0) io.note(`ledger verify: ${report.cosignatures.unchecked} cosignature(s) not checked: no key for their witness (--witness-keys or CREDGATE_WITNESSES)`);
      if (report.problems.length > 0) io.note(`ledger verify: ${report.problems.length} problem(s) found, first: log ${report.problems[0]!.logId}: ${report.problems[0]!.message}`);
      return report.problems.length === 0 ? 0 : 1;
    }
    case 'export': {
      const result = await exportTenant(k.db, keys, v('tenant'), passphraseFrom(v('passphrase-env')), v('out'), bar);
      io.out(JSON.stringify({ exported: true, file: v('out'), ...result }));
      return 0;
    }
    case 'import': {
      const ledgerOrigin = `${new URL(config.publicUrl).host}/ledger`;
      const result = await importTenant(k.db, { ...keys, ledgerOrigin }, v('in'), passphraseFrom(v('passphrase-env')), bar);
      io.out(JSON.stringify({ imported: true, ...result }));
      io.note('signed heads were re-signed with this deployment\'s ledger key; run `credgate ledger verify` to check the imported logs');
      return 0;
    }
    default:
      throw new Error(`command ${name} has no implementation`);
  }
}
