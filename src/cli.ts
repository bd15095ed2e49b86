#!/usr/bin/env node
// Only the command-line parser is loaded up front: help and usage answer without the service's
// module graph (GraphQL, every service, crypto stacks), and each command imports what it uses
// when it runs. test/e2e/cli-lazy-load.e2e.test.ts keeps it that way.
import { UsageError, parseCommandLine } from './cli/parse';
import { ArchiveError } from './cli/archive-format';
import { ConfigError } from './config/settings';
import { isAppError } from './errors/app-error';
import { RotationError } from './kms/rotation-error';
import { TABLE_COMMANDS } from './cli/table-commands';

/**
 * `credgate`: operator commands against the service's database. Exit codes: 0 done (and --help),
 * 2 a mistake of the caller (usage, configuration, a refused request), 1 anything else.
 */
async function main(): Promise<number> {
  // The command line is checked before any configuration is read or the database opened, so help
  // and usage errors work anywhere and answer at once.
  const io = { out: (line: string) => process.stdout.write(`${line}\n`), note: (line: string) => process.stderr.write(`${line}\n`) };
  // The witness is a long-running server of its own, without the service's database or configuration.
  if (process.argv[2] === 'witness') {
    const stop = new Promise<void>((resolve) => ['SIGINT', 'SIGTERM'].forEach((s) => process.once(s, () => resolve())));
    const { runWitnessCommand } = await import('./cli/witness.js');
    await runWitnessCommand(process.argv.slice(3), io, stop);
    return 0;
  }
  const parsed = parseCommandLine(process.argv.slice(2));
  if (parsed.kind === 'help') {
    process.stdout.write(`${parsed.text}\n`);
    return 0;
  }
  if (parsed.command.name === 'start') {
    // One process (the service's own entry point, which exits itself after draining), or a
    // node:cluster primary with --workers N / CREDGATE_WORKERS.
    const { start } = await import('./cli/start.js');
    return start(parsed.values, process.env);
  }
  const [{ parseConfig }, { createLogger }] = await Promise.all([import('./config/config.js'), import('./logging/logger.js')]);
  const config = parseConfig(process.env);
  if (TABLE_COMMANDS.has(parsed.command.name)) {
    const { runTableCommand } = await import('./cli/operations.js');
    return runTableCommand(config, createLogger('warn'), parsed, io);
  }
  // Tenant and API-key commands touch two tables: they open the database and the auth service only.
  const [{ openAuthCore }, { runCommand }] = await Promise.all([import('./cli/auth-core.js'), import('./cli/commands.js')]);
  const core = await openAuthCore(config, createLogger('warn'));
  try {
    await runCommand(core, parsed, io);
    return 0;
  } finally {
    await core.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof UsageError) {
      process.stderr.write(`credgate: ${e.message}\n${e.usage}\n`);
      process.exit(2);
    }
    if (e instanceof ArchiveError || e instanceof RotationError) {
      process.stderr.write(`credgate: ${e.message}\n`);
      process.exit(2);
    }
    const msg = e instanceof ConfigError ? `invalid configuration: ${e.message}` : isAppError(e) ? e.message : e instanceof Error ? e.message : String(e);
    process.stderr.write(`credgate: ${msg}\n`);
    process.exit(isAppError(e) || e instanceof ConfigError ? 2 : 1);
  },
);
