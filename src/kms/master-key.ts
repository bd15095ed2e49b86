import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import type { Logger } from '../logging/logger';
import { MasterKeyMismatchError } from './master-key-check';

export const MASTER_KEY_FILE = 'master.key';

/**
 * Returns the master key: from CREDGATE_MASTER_KEY when set; otherwise (embedded database only,
 * enforced by config) from `<dataDir>/master.key`, generated on first start with a warning,
 * because losing that file makes every stored private key unrecoverable.
 *
 * `databaseHasKey`: the database already met a master key. Then a missing file is an error, not
 * a reason to generate a new key (which could never open the stored data).
 */
export function resolveMasterKey(config: Config, logger: Logger, databaseHasKey = false): Buffer {
  if (config.masterKey) return config.masterKey;
  const file = path.join(config.dataDir, MASTER_KEY_FILE);
  if (existsSync(file)) {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
    return key;
  }
  if (databaseHasKey) {
    throw new MasterKeyMismatchError(`${file} is missing but the database was created with a master key; restore the file or set CREDGATE_MASTER_KEY`);
  }
  mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  logger.warn(
    { file },
    'generated a new master key for the embedded database; back it up, and set CREDGATE_MASTER_KEY in production',
  );
  return key;
}
