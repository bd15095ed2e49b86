import { existsSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Config, ConfigError, parseMasterKey } from '../config';
import { MASTER_KEY_FILE } from '../kms/master-key';
import { rotateMasterKey } from '../kms/rotation';
import type { CliIo } from './commands';
import type { KeyedDatabase } from './keyed-database';
import type { Progress } from './progress';

/** The new key from the named variable, else from stdin: never from argv (visible in ps). */
async function readNewKey(envName: string | undefined, stdin: NodeJS.ReadStream): Promise<Buffer> {
  if (envName !== undefined) {
    const raw = process.env[envName]?.trim();
    if (!raw) throw new ConfigError(`${envName} is not set (it should hold the new master key)`);
    return parseMasterKey(raw, envName)!;
  }
  if (stdin.isTTY) throw new ConfigError('give the new master key with --new-key-env NAME or on stdin (e.g. `credgate master-key rotate < new.key`)');
  const chunks: Buffer[] = [];
  for await (const c of stdin) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8').trim();
  if (!raw) throw new ConfigError('stdin was empty: expected the new master key');
  return parseMasterKey(raw, 'the new master key')!;
}

export async function rotateCommand(k: KeyedDatabase, config: Config, values: Readonly<Record<string, string | undefined>>, io: CliIo, bar: Progress): Promise<void> {
  const batch = values['batch-size'] === undefined ? 200 : Number(values['batch-size']);
  if (!Number.isInteger(batch) || batch < 1 || batch > 10_000) throw new ConfigError('--batch-size must be an integer from 1 to 10000');
  const next = await readNewKey(values['new-key-env'], process.stdin);
  const result = await rotateMasterKey(k.db.prisma, { current: k.masterKey, previous: config.masterKeyPrevious, next }, bar, batch);
  bar.finish();
  if (config.masterKey === undefined) {
    // Embedded database keyed by its data folder: the folder must carry the new key from now on.
    const file = path.join(config.dataDir, MASTER_KEY_FILE);
    if (!k.masterKey.equals(next)) {
      // Written beside it first, so a crash leaves either file complete (and the new key on disk).
      writeFileSync(`${file}.next`, next.toString('base64') + '\n', { mode: 0o600 });
      if (existsSync(file)) renameSync(file, `${file}.previous`);
      renameSync(`${file}.next`, file);
      io.note(`${file} now holds the new key; the old one is in ${file}.previous (delete it once backups no longer need it)`);
    }
  }
  io.out(JSON.stringify({ rotated: true, ...result }));
  io.note(result.checkReplaced ? 'done: the database now expects the new master key; remove CREDGATE_MASTER_KEY_PREVIOUS from the services' : 'done: nothing was left to re-encrypt');
}
