import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM envelope encryption. Each record gets its own data key (DEK); the DEK is wrapped
 * by a key-encryption key (KEK) derived from the master key (see `key-derivation.ts`). The
 * associated data binds a ciphertext to the record it belongs to, so a ciphertext copied into
 * another row fails to open.
 *
 * Layout: "CGE1" | kekId(8) | wrapIv(12) | wrappedDek(32) | wrapTag(16) | iv(12) | tag(16) | ct
 */
const MAGIC = Buffer.from('CGE1', 'ascii');
const KEK_ID_LEN = 8;
const IV_LEN = 12;
const TAG_LEN = 16;
const DEK_LEN = 32;
const HEADER_LEN = MAGIC.length + KEK_ID_LEN + IV_LEN + DEK_LEN + TAG_LEN + IV_LEN + TAG_LEN;

export class EnvelopeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvelopeError';
  }
}

export interface Kek {
  /** Public fingerprint of the KEK, stored beside ciphertexts: it tells which KEK opens a row. */
  readonly id: string;
  readonly key: Buffer;
}

/**
 * The KEK that seals new envelopes and every KEK an envelope may have been sealed under
 * (`opening` includes `sealing`). Envelopes name their KEK by id, so several can coexist.
 */
export interface Keyring {
  readonly sealing: Kek;
  readonly opening: readonly Kek[];
}

/** A KEK over exactly these 32 key bytes; its id is SHA-256("credgate-kek-id\0" || key)[0..8). */
export function kekFromKey(key: Uint8Array): Kek {
  if (key.length !== 32) throw new EnvelopeError('a key-encryption key must be 32 bytes');
  const id = createHash('sha256').update('credgate-kek-id\0').update(key).digest().subarray(0, KEK_ID_LEN);
  return { id: id.toString('hex'), key: Buffer.from(key) };
}

/** A keyring of one KEK. */
export function singleKeyring(kek: Kek): Keyring {
  return { sealing: kek, opening: [kek] };
}

function isKeyring(k: Kek | Keyring): k is Keyring {
  return 'sealing' in k;
}

function gcmEncrypt(key: Buffer, plaintext: Buffer, aad: Buffer): { iv: Buffer; ct: Buffer; tag: Buffer } {
  const iv = randomBytes(IV_LEN);
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(aad);
  const ct = Buffer.concat([c.update(plaintext), c.final()]);
  return { iv, ct, tag: c.getAuthTag() };
}

function gcmDecrypt(key: Buffer, iv: Buffer, ct: Buffer, tag: Buffer, aad: Buffer): Buffer {
  const d = createDecipheriv('aes-256-gcm', key, iv);
  d.setAAD(aad);
  d.setAuthTag(tag);
  try {
    return Buffer.concat([d.update(ct), d.final()]);
  } catch {
    throw new EnvelopeError('ciphertext failed authentication');
  }
}

export function seal(keys: Kek | Keyring, plaintext: Uint8Array, associatedData: string): Buffer {
  const kek = isKeyring(keys) ? keys.sealing : keys;
  const aad = Buffer.from(associatedData, 'utf8');
  const dek = randomBytes(DEK_LEN);
  try {
    const wrapped = gcmEncrypt(kek.key, dek, aad);
    const body = gcmEncrypt(dek, Buffer.from(plaintext), aad);
    return Buffer.concat([
      MAGIC,
      Buffer.from(kek.id, 'hex'),
      wrapped.iv,
      wrapped.ct,
      wrapped.tag,
      body.iv,
      body.tag,
      body.ct,
    ]);
  } finally {
    dek.fill(0);
  }
}

export function kekIdOf(envelope: Uint8Array): string {
  return Buffer.from(envelope.subarray(MAGIC.length, MAGIC.length + KEK_ID_LEN)).toString('hex');
}

export function open(keys: Kek | Keyring, envelope: Uint8Array, associatedData: string): Buffer {
  const buf = Buffer.from(envelope);
  if (buf.length < HEADER_LEN || !buf.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new EnvelopeError('not a Credgate envelope');
  }
  const id = kekIdOf(buf);
  const kek = (isKeyring(keys) ? keys.opening : [keys]).find((k) => k.id === id);
  if (!kek) throw new EnvelopeError('envelope was sealed under another master key');
  const aad = Buffer.from(associatedData, 'utf8');
  let o = MAGIC.length + KEK_ID_LEN;
  const take = (n: number): Buffer => buf.subarray(o, (o += n));
  const wrapIv = take(IV_LEN);
  const wrappedDek = take(DEK_LEN);
  const wrapTag = take(TAG_LEN);
  const iv = take(IV_LEN);
  const tag = take(TAG_LEN);
  const ct = buf.subarray(o);
  const dek = gcmDecrypt(kek.key, wrapIv, wrappedDek, wrapTag, aad);
  try {
    return gcmDecrypt(dek, iv, ct, tag, aad);
  } finally {
    dek.fill(0);
  }
}
