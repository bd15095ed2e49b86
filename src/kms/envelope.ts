import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM envelope encryption. Each record gets its own data key (DEK); the DEK is wrapped
 * by the master key (KEK). The associated data binds a ciphertext to the record it belongs to,
 * so a ciphertext copied into another row fails to open.
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
  /** Public fingerprint of the master key, stored beside ciphertexts to support rotation. */
  readonly id: string;
  readonly key: Buffer;
}

export function kekFromMasterKey(key: Buffer): Kek {
  if (key.length !== 32) throw new EnvelopeError('master key must be 32 bytes');
  const id = createHash('sha256').update('credgate-kek-id\0').update(key).digest().subarray(0, KEK_ID_LEN);
  return { id: id.toString('hex'), key: Buffer.from(key) };
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

export function seal(kek: Kek, plaintext: Uint8Array, associatedData: string): Buffer {
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

export function open(kek: Kek, envelope: Uint8Array, associatedData: string): Buffer {
  const buf = Buffer.from(envelope);
  if (buf.length < HEADER_LEN || !buf.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new EnvelopeError('not a Credgate envelope');
  }
  if (kekIdOf(buf) !== kek.id) throw new EnvelopeError('envelope was sealed under another master key');
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
