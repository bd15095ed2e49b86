import type { Config } from '../config';
import type { Logger } from '../logging/logger';
import type { CliIo } from './commands';
import { type KeyedDatabase, openKeyedDatabase, unlock } from './keyed-database';
import { witnessKeys } from './ledger-cosignatures';
import { verifyLedger } from './ledger-verify';
import { rotateCommand } from './master-key-rotate';
import { ArchiveError, passphraseFrom } from './archive-format';
import { type NoteVerifier, formatVerifierKey, parseVerifierKey, publicKeyOf } from '../domain/merkle';
import { isAppError } from '../errors';
import type { Parsed } from './parse';
import { type Progress, progress } from './progress';
import { exportTenant } from './tenant-export';
import { importTenant } from './tenant-import';

type Run = Extract<Parsed, { kind: 'run' }>;

/** The exporter's log key as the service publishes it (`verifierKey` of GET /ledger/{logId}/checkpoint). */
function sourceLogKeyOf(vkey: string): NoteVerifier {
  try {
    return parseVerifierKey(vkey);
  } catch (e) {
    if (isAppError(e)) throw new ArchiveError(`--source-log-key is not a log verifier key <name>+<id>+<key> (${e.message})`);
    throw e;
  }
}

export { TABLE_COMMANDS } from './table-commands';

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
  const ledgerOrigin = `${new URL(config.publicUrl).host}/ledger`;
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
      // The importer needs this key from us, not from the archive (whoever has the passphrase can rewrite the archive).
      const ledgerVerifierKey = formatVerifierKey(ledgerOrigin, publicKeyOf(keys.ledgerSeed));
      io.out(JSON.stringify({ exported: true, file: v('out'), ...result, ledgerVerifierKey }));
      io.note(`give the importer this log key by another channel than the archive: --source-log-key ${ledgerVerifierKey}`);
      return 0;
    }
    case 'import': {
      const sourceLogKey = sourceLogKeyOf(v('source-log-key'));
      const result = await importTenant(k.db, { ...keys, ledgerOrigin }, v('in'), passphraseFrom(v('passphrase-env')), sourceLogKey, bar);
      io.out(JSON.stringify({ imported: true, ...result }));
      io.note(`every log was recomputed from its leaves and its signed head checked under --source-log-key, then signed again with this deployment's ledger key`);
      if (result.version < 2) {
        io.note('this archive is of version 1: it carries no VC-API issuers or status lists, OpenID4VCI issued-credential records, idempotency records, witness or anchor state; export the tenant again with this release to move them');
      }
      return 0;
    }
    default:
      throw new Error(`command ${name} has no implementation`);
  }
}
