import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { type NoteVerifier, parseVerifierKey, publicKeyOf } from '../domain/merkle';
import { systemClock } from '../domain/ports';
import { isAppError } from '../errors';
import { type WitnessSigner, formatWitnessSignerKey, formatWitnessVerifierKey, parseWitnessSignerKey } from '../witness/cosignature';
import { Witness } from '../witness/witness';
import { createWitnessServer } from '../witness/witness-http';
import { JsonFileWitnessState } from '../witness/witness-state';
import { lockWitnessFolder } from '../witness/state-lock';
import { UsageError } from './parse';
import { COMMANDS, commandUsage } from './spec';
import type { CliIo } from './commands';

const spec = COMMANDS.find((c) => c.name === 'witness')!;

/** Reads the signer key file, or creates one (never overwriting a file) when it is missing and a name is given. */
function loadSigner(file: string, name: string | undefined, usage: string): WitnessSigner {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    if (name === undefined) throw new UsageError(`${file} does not exist; pass --name to create a new witness key there`, usage);
    const signer = { name, seed: new Uint8Array(randomBytes(32)) };
    writeFileSync(file, `${formatWitnessSignerKey(signer)}\n`, { mode: 0o600, flag: 'wx' });
    return signer;
  }
  const signer = parseWitnessSignerKey(text.trim());
  if (name !== undefined && name !== signer.name) throw new UsageError(`--name ${name} differs from the key file's name ${signer.name}`, usage);
  return signer;
}

/**
 * `credgate witness`: runs until SIGINT/SIGTERM. Needs none of the service's configuration: an
 * independent party runs it with only the log's public key, its own key file and a state folder.
 */
export async function runWitnessCommand(argv: readonly string[], io: CliIo, stop: Promise<void>): Promise<void> {
  const usage = commandUsage(spec);
  if (argv.some((a) => a === '--help' || a === '-h')) {
    io.out(usage);
    return;
  }
  let values: Record<string, string | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: Object.fromEntries(Object.keys(spec.options).map((f) => [f, { type: 'string' as const, multiple: f === 'log-key' }])),
    }));
  } catch (e) {
    const flag = /'(-{1,2}[^'\s]+)/.exec(e instanceof Error ? e.message : '')?.[1] ?? '';
    const code = (e as { code?: string }).code;
    throw new UsageError(code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' ? `option ${flag} needs a value` : `unknown option or argument ${flag}`.trim(), usage);
  }
  for (const [flag, o] of Object.entries(spec.options)) {
    if (o.required && values[flag] === undefined) throw new UsageError(`--${flag} is required`, usage);
  }
  const one = (flag: string): string | undefined => values[flag] as string | undefined;
  const port = Number(one('port'));
  if (!/^\d{1,5}$/.test(one('port')!) || port > 65535) throw new UsageError('--port must be an integer from 0 to 65535', usage);
  let logKeys: NoteVerifier[];
  let signer: WitnessSigner;
  try {
    logKeys = (values['log-key'] as string[]).map((k) => parseVerifierKey(k));
    signer = loadSigner(one('key-file')!, one('name'), usage);
  } catch (e) {
    if (isAppError(e)) throw new UsageError(e.message, usage);
    throw e;
  }

  // Held until the process ends: a second witness on this folder refuses to start (WitnessStateLockedError, one line).
  const folderLock = lockWitnessFolder(one('state')!);
  try {
    const witness = new Witness({ logKeys, signer, state: new JsonFileWitnessState(one('state')!), clock: systemClock });
    const server = createWitnessServer(witness);
    const host = one('host') ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    const address = server.address() as AddressInfo;
    const verifierKey = formatWitnessVerifierKey({ name: signer.name, publicKey: publicKeyOf(signer.seed) });
    io.out(JSON.stringify({ verifierKey, url: `http://${host}:${address.port}` }));
    await stop;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  } finally {
    folderLock.release();
  }
}
