import { createHash } from 'node:crypto';
import type { SqlExecutor } from '../db/sql-executor';
import { nativeEd25519Verify } from '../domain/keys/ed25519';
import { equalBytes, formatCheckpoint, isValidKeyName } from '../domain/merkle';

/**
 * Witness cosignatures (C2SP tlog-cosignature, `cosignature/v1`), checked by `ledger verify` when
 * the database has the `ledger_cosignatures` table (witness cosigning): each stored line must be
 * an Ed25519 signature by the named witness over `cosignature/v1\ntime <t>\n` + the checkpoint body
 * at that size, rebuilt here from the root the leaves give, so a cosignature of a forked tree fails.
 * Written from the specification, not the witness module, so the check stays independent of it.
 */
const COSIGNATURE_V1 = 0x04;
const DASH = '\u2014 ';

export interface WitnessKey {
  readonly name: string;
  readonly publicKey: Uint8Array;
}

export interface CosignatureRow {
  readonly log_seq: string;
  readonly witness: string;
  readonly tree_size: number;
  readonly line: string;
}

const keyId = (name: string, publicKey: Uint8Array): Buffer =>
  createHash('sha256').update(Buffer.concat([Buffer.from(`${name}\n`, 'utf8'), Buffer.of(COSIGNATURE_V1), publicKey])).digest().subarray(0, 4);

/** `<name>+<hex key id>+<base64(0x04 || key)>`; undefined when malformed or its key id is wrong. */
export function parseWitnessKey(vkey: string): WitnessKey | undefined {
  const [name = '', id = '', ...rest] = vkey.split('+');
  const material = Buffer.from(rest.join('+'), 'base64');
  if (!isValidKeyName(name) || material.length !== 33 || material[0] !== COSIGNATURE_V1) return undefined;
  const publicKey = Uint8Array.from(material.subarray(1));
  return keyId(name, publicKey).toString('hex') === id ? { name, publicKey } : undefined;
}

/** Witness keys from `--witness-keys` (vkeys, or `vkey@url` entries as in CREDGATE_WITNESSES) and the configured witnesses; bad entries are reported. */
export function witnessKeys(sources: readonly (string | undefined)[]): { keys: Map<string, WitnessKey>; bad: string[] } {
  const keys = new Map<string, WitnessKey>();
  const bad: string[] = [];
  for (const entry of sources.flatMap((s) => (s ?? '').split(/[\s,]+/)).filter((e) => e !== '')) {
    const vkey = entry.includes('@') ? entry.slice(0, entry.indexOf('@')) : entry;
    const key = parseWitnessKey(vkey);
    if (key) keys.set(key.name, key);
    else bad.push(vkey.split('+')[0] ?? '');
  }
  return { keys, bad };
}

/** The table's rows, or null when this database has no witness cosigning. */
export async function readCosignatures(sql: SqlExecutor): Promise<CosignatureRow[] | null> {
  const exists = await sql.query<{ t: string | null }>("SELECT to_regclass('ledger_cosignatures')::text AS t");
  if (!exists[0]?.t) return null;
  return sql.query<CosignatureRow>('SELECT log_seq::text AS log_seq, witness, tree_size, line FROM ledger_cosignatures ORDER BY log_seq, tree_size, witness');
}

/** Whether `line` is `key`'s cosignature of the checkpoint (origin, size, root); never throws. */
export function verifyCosignatureLine(line: string, key: WitnessKey, checkpoint: { origin: string; size: number; rootHash: Uint8Array }): boolean {
  const text = line.replace(/\n$/, '');
  if (!text.startsWith(`${DASH}${key.name} `)) return false;
  const blob = Buffer.from(text.slice(DASH.length + key.name.length + 1), 'base64');
  if (blob.length !== 4 + 8 + 64 || !equalBytes(blob.subarray(0, 4), keyId(key.name, key.publicKey))) return false;
  const timestamp = blob.readBigUInt64BE(4);
  const message = Buffer.from(`cosignature/v1\ntime ${timestamp}\n${formatCheckpoint(checkpoint)}`, 'utf8');
  try {
    return nativeEd25519Verify(blob.subarray(12), message, key.publicKey);
  } catch {
    return false;
  }
}
