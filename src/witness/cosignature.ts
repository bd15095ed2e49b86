/**
 * C2SP tlog-cosignature (c2sp.org/tlog-cosignature) with Ed25519: the `cosignature/v1` note
 * signature a witness adds to a checkpoint, and witness keys in the signed-note vkey encoding with
 * signature type 0x04. Pure: no I/O. Parsing keys throws AppError; verifying a cosignature never
 * throws — it answers false.
 *
 * Signature line: `— <name> base64(keyID(4) || timestamp(u64 BE) || Ed25519 signature(64))`, over
 * `cosignature/v1\ntime <timestamp>\n` followed by the whole checkpoint body (signature lines excluded).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { base64 } from '@scure/base';
import { AppError } from '../errors';
import { equalBytes, isValidKeyName, publicKeyOf } from '../domain/merkle';
import { nativeEd25519Sign, nativeEd25519Verify } from '../domain/keys/ed25519';

/** Signature type byte of Ed25519 cosignature/v1 in key IDs and vkeys. */
export const COSIGNATURE_V1 = 0x04;
const DASH = '\u2014 ';
const utf8 = new TextEncoder();

/** A witness's public identity: the key name and the 32-byte Ed25519 public key. */
export interface WitnessVerifier {
  readonly name: string;
  readonly publicKey: Uint8Array;
}

/** A witness's signing identity; the seed never leaves the witness process. */
export interface WitnessSigner {
  readonly name: string;
  readonly seed: Uint8Array;
}

/** A verified cosignature: who signed and when (POSIX seconds). */
export interface Cosignature {
  readonly name: string;
  readonly timestamp: number;
  /** The signature line as it appears in a note, with its final newline. */
  readonly line: string;
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** key ID = SHA-256(name || 0x0A || 0x04 || public key)[:4]. */
export function cosignatureKeyId(name: string, publicKey: Uint8Array): Uint8Array {
  return sha256(Uint8Array.from([...utf8.encode(name), 0x0a, COSIGNATURE_V1, ...publicKey])).slice(0, 4);
}

/** `<name>+<hex key ID>+<base64(0x04 || public key)>`. */
export function formatWitnessVerifierKey(w: WitnessVerifier): string {
  if (!isValidKeyName(w.name) || w.publicKey.length !== 32) throw new AppError('INVALID_PUBLIC_KEY', 'invalid witness key');
  return `${w.name}+${hex(cosignatureKeyId(w.name, w.publicKey))}+${base64.encode(Uint8Array.of(COSIGNATURE_V1, ...w.publicKey))}`;
}

/** `PRIVATE+KEY+<name>+<hex key ID>+<base64(0x04 || seed)>`, the key file of `credgate witness`. */
export function formatWitnessSignerKey(s: WitnessSigner): string {
  const vkey = formatWitnessVerifierKey({ name: s.name, publicKey: publicKeyOf(s.seed) });
  const [, id] = vkey.split('+');
  return `PRIVATE+KEY+${s.name}+${id}+${base64.encode(Uint8Array.of(COSIGNATURE_V1, ...s.seed))}`;
}

/** Splits `<name>+<8 hex>+<base64(0x04 || 32 bytes)>`; the base64 part may itself hold '+'. */
function splitKey(encoded: string, code: 'INVALID_PUBLIC_KEY' | 'INVALID_PRIVATE_KEY'): { name: string; id: string; key: Uint8Array } {
  const [name = '', id = '', ...rest] = encoded.split('+');
  let material: Uint8Array | undefined;
  try {
    material = base64.decode(rest.join('+'));
  } catch {
    material = undefined;
  }
  if (!isValidKeyName(name) || !/^[0-9a-f]{8}$/.test(id) || material?.length !== 33 || material[0] !== COSIGNATURE_V1) {
    throw new AppError(code, 'malformed witness key (expected <name>+<key id>+<base64(0x04 || key)>)');
  }
  return { name, id, key: material.slice(1) };
}

/** Parses a witness vkey; INVALID_PUBLIC_KEY when malformed or its key ID is wrong. */
export function parseWitnessVerifierKey(vkey: string): WitnessVerifier {
  const { name, id, key } = splitKey(vkey, 'INVALID_PUBLIC_KEY');
  if (id !== hex(cosignatureKeyId(name, key))) throw new AppError('INVALID_PUBLIC_KEY', 'witness key ID does not match the key');
  return { name, publicKey: key };
}

/** Parses a witness signer key; INVALID_PRIVATE_KEY when malformed or its key ID is wrong. */
export function parseWitnessSignerKey(skey: string): WitnessSigner {
  if (!skey.startsWith('PRIVATE+KEY+')) throw new AppError('INVALID_PRIVATE_KEY', 'malformed witness signer key');
  const { name, id, key } = splitKey(skey.slice('PRIVATE+KEY+'.length), 'INVALID_PRIVATE_KEY');
  if (id !== hex(cosignatureKeyId(name, publicKeyOf(key)))) throw new AppError('INVALID_PRIVATE_KEY', 'witness key ID does not match the key');
  return { name, seed: key };
}

function signedMessage(body: string, timestamp: number): Uint8Array {
  return utf8.encode(`cosignature/v1\ntime ${timestamp}\n${body}`);
}

function u64(n: number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(n));
  return b;
}

/** The cosignature line over a checkpoint body (ending in a newline) at POSIX second `timestamp`. */
export function cosign(body: string, timestamp: number, signer: WitnessSigner): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new AppError('INVALID_INPUT', 'cosignature timestamp must be a non-negative integer');
  const keyId = cosignatureKeyId(signer.name, publicKeyOf(signer.seed));
  const signature = nativeEd25519Sign(signedMessage(body, timestamp), signer.seed);
  return `${DASH}${signer.name} ${base64.encode(Uint8Array.from([...keyId, ...u64(timestamp), ...signature]))}\n`;
}

/**
 * Checks one signature line (with or without its newline) as a cosignature of `body` by `witness`.
 * Lines from other keys, malformed lines and bad signatures all answer undefined.
 */
export function verifyCosignature(body: string, line: string, witness: WitnessVerifier): Cosignature | undefined {
  const text = line.endsWith('\n') ? line.slice(0, -1) : line;
  if (!text.startsWith(`${DASH}${witness.name} `) || text.includes('\n')) return undefined;
  let blob: Uint8Array;
  try {
    blob = base64.decode(text.slice(DASH.length + witness.name.length + 1));
  } catch {
    return undefined;
  }
  if (blob.length !== 4 + 8 + 64 || !equalBytes(blob.slice(0, 4), cosignatureKeyId(witness.name, witness.publicKey))) return undefined;
  const ts = new DataView(blob.buffer, blob.byteOffset + 4, 8).getBigUint64(0);
  if (ts > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
  const timestamp = Number(ts);
  try {
    if (!nativeEd25519Verify(blob.slice(12), signedMessage(body, timestamp), witness.publicKey)) return undefined;
  } catch {
    return undefined;
  }
  return { name: witness.name, timestamp, line: `${text}\n` };
}

/** The body of a signed note (up to and including the newline before the blank line), or undefined. */
export function noteBody(note: string): string | undefined {
  const split = note.indexOf('\n\n');
  return split < 0 ? undefined : note.slice(0, split + 1);
}

/** Signature lines of a note or of a witness response, each ending in a newline. */
export function signatureLines(text: string): string[] {
  return text.split('\n').filter((l) => l.startsWith(DASH)).map((l) => `${l}\n`);
}
