/** The CLI's commands, their arguments and help text: one table that parsing and help both read. */

export interface OptionSpec {
  readonly value: string;
  readonly help: string;
  readonly required?: boolean;
}

export interface CommandSpec {
  /** `group action`, e.g. `api-key create`. */
  readonly name: string;
  readonly summary: string;
  /** Positional arguments after the command, all required. */
  readonly positionals: readonly { readonly name: string; readonly help: string }[];
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** Extra lines for `credgate <command> --help`. */
  readonly notes?: readonly string[];
}

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'start',
    summary: 'run the service (what `npm start` and `node dist/main.js` run; SIGTERM drains and stops it)',
    positionals: [],
    options: {
      workers: { value: 'N', help: 'service processes sharing the port (node:cluster; default CREDGATE_WORKERS or 1; N > 1 needs DATABASE_URL)' },
    },
    notes: [
      '',
      'With N > 1 a primary process migrates the database and checks the master key once, then forks N workers;',
      'a worker that dies is restarted (at most 5 restarts a minute, then everything stops with exit 1);',
      'SIGTERM to the primary drains every worker (each commits its queued issuances) and exits 0.',
    ],
  },
  {
    name: 'migrate',
    summary: 'apply pending database migrations (the same as `db migrate`)',
    positionals: [],
    options: {},
  },
  {
    name: 'db migrate',
    summary: 'apply pending database migrations',
    positionals: [],
    options: {},
  },
  {
    name: 'tenant create',
    summary: 'create a tenant (an existing slug is left as it is)',
    positionals: [{ name: 'slug', help: 'lowercase letters, digits and hyphens (max 63)' }],
    options: { name: { value: 'NAME', help: 'display name (default: the slug)' } },
  },
  {
    name: 'tenant list',
    summary: 'list tenants, one JSON object a line',
    positionals: [],
    options: {},
  },
  {
    name: 'api-key create',
    summary: 'create an API key in an existing tenant (the key is printed once)',
    positionals: [],
    options: {
      tenant: { value: 'SLUG', help: 'the tenant (create it first with `credgate tenant create`)', required: true },
      scopes: { value: 'a,b', help: 'comma-separated: admin, issuer, holder, verifier', required: true },
      name: { value: 'NAME', help: 'a label for the key' },
      'holder-did': { value: 'DID', help: "bind a holder key to one holder DID (it then acts for that holder only)" },
    },
  },
  {
    name: 'api-key list',
    summary: "list a tenant's keys (never their secrets), one JSON object a line",
    positionals: [],
    options: { tenant: { value: 'SLUG', help: 'the tenant', required: true } },
  },
  {
    name: 'api-key revoke',
    summary: 'revoke a key',
    positionals: [],
    options: {
      tenant: { value: 'SLUG', help: 'the tenant', required: true },
      id: { value: 'KEY_ID', help: 'the key id (from `api-key list`)', required: true },
    },
  },
  {
    name: 'master-key rotate',
    summary: 're-encrypt every private key and sealed record under a new master key (resumable; services keep serving)',
    positionals: [],
    options: {
      'new-key-env': { value: 'NAME', help: 'read the new key (64 hex digits or base64) from this environment variable; without it, from stdin' },
      'batch-size': { value: 'N', help: 'rows re-encrypted per transaction (default 200)' },
    },
    notes: [
      '',
      'The new key is never taken from the command line (other users can read it in ps).',
      'Procedure: 1. restart every instance with CREDGATE_MASTER_KEY=<new> and CREDGATE_MASTER_KEY_PREVIOUS=<old>;',
      '2. run this command with the old key configured as CREDGATE_MASTER_KEY (or master.key) and the new one given as above;',
      '3. when it reports done, remove CREDGATE_MASTER_KEY_PREVIOUS. Interrupted? Run it again: it continues.',
      'With the embedded database and no CREDGATE_MASTER_KEY, master.key is replaced (the old key kept as master.key.previous).',
    ],
  },
  {
    name: 'ledger verify',
    summary: "recompute every log's roots and nodes from its leaves, check every signed head and witness cosignature (exit 1 on any problem)",
    positionals: [],
    options: {
      'witness-keys': { value: 'VKEYS', help: 'witness verifier keys (comma-separated) for checking cosignatures; default: those in CREDGATE_WITNESSES' },
    },
  },
  {
    name: 'export',
    summary: "write a tenant's DIDs, keys, schemas, templates, credentials, status lists, API key hashes and logs to an archive",
    positionals: [],
    options: {
      tenant: { value: 'SLUG', help: 'the tenant', required: true },
      out: { value: 'FILE', help: 'the archive to write (JSON lines; refused if it exists)', required: true },
      'passphrase-env': { value: 'NAME', help: 'environment variable holding the passphrase private keys are re-sealed under', required: true },
    },
    notes: ['', 'Prints the ledgerVerifierKey the importer must pass as --source-log-key; send it by another channel than the archive.'],
  },
  {
    name: 'import',
    summary: 'load a tenant archive written by `credgate export` into this database (which must not hold that tenant)',
    positionals: [],
    options: {
      in: { value: 'FILE', help: 'the archive', required: true },
      'passphrase-env': { value: 'NAME', help: 'environment variable holding the passphrase given at export', required: true },
      'source-log-key': {
        value: 'VKEY',
        help: "the exporting deployment's log verifier key <name>+<id>+<key> (export prints it; GET /ledger/{logId}/checkpoint shows it)",
        required: true,
      },
    },
    notes: [
      '',
      'The log key is taken from you, never from the archive: whoever holds the passphrase could rewrite the archive and',
      'name a key of their own. Every log is recomputed from its leaves, every signed head must verify under this key and',
      'match, and every row must point into the imported tenant; otherwise nothing is imported. There is no mode without it.',
    ],
  },
  {
    name: 'witness',
    summary: 'run a C2SP transparency-log witness (POST /add-checkpoint) for the given log keys',
    positionals: [],
    options: {
      'log-key': { value: 'VKEY', help: 'a trusted log verifier key <name>+<id>+<key>; repeat for more logs', required: true },
      'key-file': { value: 'FILE', help: "the witness's signer key; created (mode 0600) when missing and --name is given", required: true },
      name: { value: 'NAME', help: 'witness key name when creating the key file, e.g. witness.example.org/w1' },
      port: { value: 'PORT', help: 'port to listen on (0 picks a free one)', required: true },
      host: { value: 'HOST', help: 'interface to listen on (default 127.0.0.1)' },
      state: { value: 'DIR', help: 'directory of the durable witness state (latest cosigned head per log)', required: true },
    },
    notes: ['', 'Needs no database or CREDGATE_* configuration. Prints {"verifierKey","url"} as one JSON line once listening.'],
  },
];

const FOOTER = [
  'Configuration comes from the same environment as the service (DATABASE_URL, CREDGATE_DATA_DIR, CREDGATE_MASTER_KEY, ...).',
  'The embedded database (no DATABASE_URL) is locked by the process using it: stop the server first, or use DATABASE_URL.',
];

function synopsis(c: CommandSpec): string {
  const pos = c.positionals.map((p) => `<${p.name}>`);
  const opts = Object.entries(c.options).map(([flag, o]) => (o.required ? `--${flag} ${o.value}` : `[--${flag} ${o.value}]`));
  return ['credgate', c.name, ...pos, ...opts].join(' ');
}

export function groups(): string[] {
  return [...new Set(COMMANDS.map((c) => c.name.split(' ')[0]!))];
}

/** `credgate --help`: every command with its synopsis. */
export function mainUsage(): string {
  const lines = ['usage: credgate <command> [options]', '', 'commands:'];
  for (const c of COMMANDS) lines.push(`  ${synopsis(c).slice('credgate '.length)}`, `      ${c.summary}`);
  lines.push('', 'options: --help (-h) on any command shows its usage.', ...FOOTER);
  return lines.join('\n');
}

/** `credgate <group> --help`: the group's commands. */
export function groupUsage(group: string): string {
  const single = COMMANDS.find((c) => c.name === group);
  if (single) return commandUsage(single);
  const lines = [`usage: credgate ${group} <${COMMANDS.filter((c) => c.name.startsWith(`${group} `)).map((c) => c.name.split(' ')[1]).join('|')}> [options]`, ''];
  for (const c of COMMANDS.filter((c) => c.name.startsWith(`${group} `))) lines.push(`  ${synopsis(c)}`, `      ${c.summary}`);
  return lines.join('\n');
}

/** `credgate <group> <action> --help`: one command in full. */
export function commandUsage(c: CommandSpec): string {
  const lines = [`usage: ${synopsis(c)}`, '', c.summary];
  const rows = (entries: [string, string][]): string[] => {
    const width = Math.max(...entries.map(([left]) => left.length));
    return entries.map(([left, help]) => `  ${left.padEnd(width)}  ${help}`);
  };
  if (c.positionals.length > 0) lines.push('', 'arguments:', ...rows(c.positionals.map((p) => [`<${p.name}>`, p.help])));
  const options: [string, string][] = Object.entries(c.options).map(([flag, o]) => [`--${flag} ${o.value}`, `${o.help}${o.required ? ' (required)' : ''}`]);
  lines.push('', 'options:', ...rows([...options, ['--help, -h', 'show this help']]));
  for (const n of c.notes ?? []) lines.push(n);
  return lines.join('\n');
}
