import { parseArgs } from 'node:util';
import { COMMANDS, type CommandSpec, commandUsage, groupUsage, groups, mainUsage } from './spec';

/** A mistake in the command line itself: one line naming it, then the usage that applies (exit 2). */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
  }
}

export type Parsed =
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'run'; readonly command: CommandSpec; readonly args: readonly string[]; readonly values: Readonly<Record<string, string | undefined>> };

const isHelp = (a: string): boolean => a === '--help' || a === '-h';

/** Parses argv without touching the database, so help and usage errors need no configuration. */
export function parseCommandLine(argv: readonly string[]): Parsed {
  const [group, action, ...rest] = argv;
  if (group === undefined) throw new UsageError('missing command', mainUsage());
  if (isHelp(group) || group === 'help') return { kind: 'help', text: mainUsage() };
  if (group.startsWith('-')) throw new UsageError(`unknown option ${group}`, mainUsage());
  if (!groups().includes(group)) throw new UsageError(`unknown command "${group}"`, mainUsage());
  // A command of one word (`export`, `import`) takes its options right after it.
  const single = COMMANDS.find((c) => c.name === group);
  if (single) return parseOptions(single, argv.slice(1));
  if (action === undefined) throw new UsageError(`missing ${group} command`, groupUsage(group));
  if (isHelp(action)) return { kind: 'help', text: groupUsage(group) };
  const command = COMMANDS.find((c) => c.name === `${group} ${action}`);
  if (!command) {
    const what = action.startsWith('-') ? `unknown option ${action}` : `unknown command "${group} ${action}"`;
    throw new UsageError(what, groupUsage(group));
  }
  return parseOptions(command, rest);
}

function parseOptions(command: CommandSpec, rest: readonly string[]): Parsed {
  const usage = commandUsage(command);
  if (rest.some(isHelp)) return { kind: 'help', text: usage };

  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...rest],
      allowPositionals: true,
      strict: true,
      options: Object.fromEntries(Object.keys(command.options).map((flag) => [flag, { type: 'string' as const }])),
    });
  } catch (e) {
    // node:util's messages are long and mention its own API; keep the option the user typed.
    const code = (e as { code?: string }).code;
    const msg = e instanceof Error ? e.message : String(e);
    const flag = /'(-{1,2}[^'\s]+)/.exec(msg)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(`unknown option ${flag ?? ''} for ${command.name}`.trim(), usage);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw new UsageError(`option ${flag ?? ''} needs a value`.replace('  ', ' '), usage);
    throw new UsageError(msg.split('\n')[0]!, usage);
  }
  const positionals = parsed.positionals;
  if (positionals.length < command.positionals.length) throw new UsageError(`missing <${command.positionals[positionals.length]!.name}>`, usage);
  if (positionals.length > command.positionals.length) throw new UsageError(`unexpected argument "${positionals[command.positionals.length]}"`, usage);
  const values = parsed.values as Record<string, string | undefined>;
  for (const [flag, o] of Object.entries(command.options)) {
    if (o.required && (values[flag] === undefined || values[flag] === '')) throw new UsageError(`--${flag} is required`, usage);
  }
  return { kind: 'run', command, args: positionals, values };
}
