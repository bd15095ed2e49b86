#!/usr/bin/env node
import 'reflect-metadata';
import { createCore } from './app';
import { runCommand } from './cli/commands';
import { TABLE_COMMANDS, runTableCommand } from './cli/operations';
import { UsageError, parseCommandLine } from './cli/parse';
import { runWitnessCommand } from './cli/witness';
import { ConfigError, parseConfig } from './config';
import { isAppError } from './errors';
import { ArchiveError } from './cli/archive-format';
import { RotationError } from './kms/rotation';
import { createLogger } from './logging/logger';

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
    await runWitnessCommand(process.argv.slice(3), io, stop);
    return 0;
  }
  const parsed = parseCommandLine(process.argv.slice(2));
  if (parsed.kind === 'help') {
    process.stdout.write(`${parsed.text}\n`);
    return 0;
  }
  if (parsed.command.name === 'start') {
    // The service's own entry point: it listens, and exits itself on SIGTERM/SIGINT after draining.
    await import('./main.js');
    return new Promise<number>(() => undefined);
  }
  const config = parseConfig(process.env);
  if (TABLE_COMMANDS.has(parsed.command.name)) return runTableCommand(config, createLogger('warn'), parsed, io);
  const { db, services } = await createCore({ config, logger: createLogger('warn') });
  try {
    await runCommand(services, parsed, io);
    return 0;
  } finally {
    await db.close();
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
