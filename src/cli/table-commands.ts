/**
 * Commands that work on the tables and keys directly, not through the services (see commands.ts).
 * Its own file so src/cli.ts can route a command before importing the code that runs it.
 */
export const TABLE_COMMANDS: ReadonlySet<string> = new Set(['master-key rotate', 'ledger verify', 'export', 'import']);
