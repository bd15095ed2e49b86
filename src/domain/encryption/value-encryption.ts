import { createCipheriv, createDecipheriv, randomBytes as nodeRandomBytes } from 'node:crypto';
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { AppError, isAppError } from '../../errors';
import { canonicalBytes, canonicalize } from '../canonical';
import { base64ToBytes, bytesToBase64 } from '../encoding';
import { MAX_ATTRIBUTES } from '../schemas/attribute-definitions';
import {
  drawRandom,
  type RandomBytes,
  x25519PublicKeyFromEd25519,
  x25519PublicKeyFromSecret,
  x25519SecretKeyFromEd25519Seed,
  x25519SharedSecret,
} from '../keys';

/**
 * Per-value encryption a holder can decrypt with their Ed25519 key (ECIES over X25519):
 *
 *   base64( version 0x01 | ephemeral X25519 public key (32) | nonce (12) | AES-256-GCM ciphertext | tag (16) )
 *
 * key = HKDF-SHA256(ikm = X25519(ephemeral, holder), salt = ephemeralPub || holderPub,
 * info = "credgate/value-encryption/v1", 32 bytes). The Ed25519 key is mapped to X25519 (the
 * holder's one key pair serves both). Both public keys in the salt bind the key to this exchange;
 * the version is bound through `info`, so a future v2 derives different keys. The AAD is the
 * RFC 8785 JSON of `{ attribute, credentialId }`: a ciphertext copied to another attribute or
 * credential fails authentication.
 */
export const VALUE_ENCRYPTION_VERSION = 1;
export const VALUE_ENCRYPTION_INFO = 'credgate/value-encryption/v1';
/** Largest plaintext accepted, in UTF-8 bytes; attribute values are short. */
export const MAX_PLAINTEXT_BYTES = 64 * 1024;

const EPHEMERAL_LENGTH = 32;
const NONCE_LENGTH = 12;
const TAG_LENGTH = 16;
const HEADER_LENGTH = 1 + EPHEMERAL_LENGTH + NONCE_LENGTH;
const MIN_LENGTH = HEADER_LENGTH + TAG_LENGTH;

/**
 * Most encrypted values one subject may carry: a schema's {@link MAX_ATTRIBUTES} attributes plus
 * the holder `id`. Each value costs two X25519 scalar multiplications (about 1 ms of CPU), so
 * without a bound one request of 9,000 values held the event loop for 14 s.
 */
export const MAX_ENCRYPTED_VALUES = MAX_ATTRIBUTES + 1;
/** Longest accepted ciphertext text: the base64 of the largest plaintext plus the envelope. */
export const MAX_CIPHERTEXT_LENGTH = 4 * Math.ceil((MAX_PLAINTEXT_BYTES + MIN_LENGTH) / 3);
/** Values decrypted between two yields to the event loop (a few milliseconds of CPU). */
const DECRYPT_SLICE = 8;
const info = new TextEncoder().encode(VALUE_ENCRYPTION_INFO);
const utf8 = new TextEncoder();
const LONE_SURROGATE = /\p{Cs}/u;

export interface ValueEncryptionContext {
  /** Attribute name the value belongs to (`id` for the holder DID). */
  attribute: string;
  credentialId: string;
}

export interface ValueEncryptionOptions {
  /** Randomness for the ephemeral key and nonce; defaults to the platform CSPRNG. */
  randomBytes?: RandomBytes;
}

function invalid(message: string, field = 'ciphertext'): AppError {
  return new AppError('INVALID_INPUT', message, [{ field, message }]);
}

function unauthenticated(field: string): AppError {
  const message = 'ciphertext failed authentication';
  return new AppError('VERIFICATION_FAILED', message, [{ field, message }]);
}

function aad(context: ValueEncryptionContext): Uint8Array {
  if (context === null || typeof context !== 'object') throw invalid('context must be an object', 'context');
  const { attribute, credentialId } = context;
  if (typeof attribute !== 'string' || attribute.length === 0) {
    throw invalid('context.attribute must be a non-empty string', 'attribute');
  }
  if (typeof credentialId !== 'string' || credentialId.length === 0) {
    throw invalid('context.credentialId must be a non-empty string', 'credentialId');
  }
  // Only the two members: a caller passing a richer object must not change the AAD.
  return canonicalBytes({ attribute, credentialId });
}

function deriveKey(shared: Uint8Array, ephemeralPub: Uint8Array, recipientPub: Uint8Array): Uint8Array {
  const salt = new Uint8Array(EPHEMERAL_LENGTH * 2);
  salt.set(ephemeralPub, 0);
  salt.set(recipientPub, EPHEMERAL_LENGTH);
  return hkdf(sha256, shared, salt, info, 32);
}

/**
 * Encrypts one value for the holder of `holderEd25519PublicKey`. A fresh ephemeral key and nonce
 * are drawn each call, so equal plaintexts give different ciphertexts.
 *
 * @throws AppError INVALID_PUBLIC_KEY for a bad holder key; INVALID_INPUT for a bad context,
 * a plaintext with unpaired surrogates (it would not round-trip) or one over {@link MAX_PLAINTEXT_BYTES}.
 */
export function encryptValue(
  plaintext: string,
  holderEd25519PublicKey: Uint8Array,
  context: ValueEncryptionContext,
  options: ValueEncryptionOptions = {},
): string {
  if (typeof plaintext !== 'string' || LONE_SURROGATE.test(plaintext)) {
    throw invalid('plaintext must be a well-formed Unicode string', 'plaintext');
  }
  const data = utf8.encode(plaintext);
  if (data.length > MAX_PLAINTEXT_BYTES) throw invalid(`plaintext must be at most ${MAX_PLAINTEXT_BYTES} bytes`, 'plaintext');
  const additional = aad(context);
  const recipientPub = x25519PublicKeyFromEd25519(holderEd25519PublicKey);
  const random: RandomBytes = options.randomBytes ?? ((n) => new Uint8Array(nodeRandomBytes(n)));
  const ephemeralSecret = drawRandom(random, EPHEMERAL_LENGTH);
  const nonce = drawRandom(random, NONCE_LENGTH);
  const ephemeralPub = x25519PublicKeyFromSecret(ephemeralSecret);
  const shared = x25519SharedSecret(ephemeralSecret, recipientPub);
  const key = deriveKey(shared, ephemeralPub, recipientPub);
  try {
    const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_LENGTH });
    cipher.setAAD(additional);
    const body = Buffer.concat([cipher.update(data), cipher.final()]);
    const out = new Uint8Array(HEADER_LENGTH + body.length + TAG_LENGTH);
    out[0] = VALUE_ENCRYPTION_VERSION;
    out.set(ephemeralPub, 1);
    out.set(nonce, 1 + EPHEMERAL_LENGTH);
    out.set(body, HEADER_LENGTH);
    out.set(cipher.getAuthTag(), HEADER_LENGTH + body.length);
    return bytesToBase64(out);
  } finally {
    ephemeralSecret.fill(0);
    shared.fill(0);
    key.fill(0);
  }
}

/**
 * Decrypts a value made by {@link encryptValue} with the holder's 32-byte Ed25519 seed.
 *
 * @throws AppError INVALID_INPUT for text that is not padded base64, too short, or of an
 * unknown version; VERIFICATION_FAILED ("ciphertext failed authentication") for any tampering,
 * the wrong holder key or the wrong attribute/credential context; INVALID_PRIVATE_KEY for a
 * seed that is not 32 bytes.
 */
export function decryptValue(ciphertextB64: string, holderSeed: Uint8Array, context: ValueEncryptionContext): string {
  const field = typeof context?.attribute === 'string' ? context.attribute : 'ciphertext';
  return decryptWithField(ciphertextB64, holderSeed, context, field);
}

function decryptWithField(
  ciphertextB64: unknown,
  holderSeed: Uint8Array,
  context: ValueEncryptionContext,
  field: string,
): string {
  const keys = recipientKeys(holderSeed);
  try {
    return decryptWithKeys(ciphertextB64, keys, context, field);
  } finally {
    keys.secret.fill(0);
  }
}

interface RecipientKeys {
  secret: Uint8Array;
  publicKey: Uint8Array;
}

/** The holder's X25519 key pair, derived once per request rather than once per value. */
function recipientKeys(holderSeed: Uint8Array): RecipientKeys {
  const secret = x25519SecretKeyFromEd25519Seed(holderSeed);
  return { secret, publicKey: x25519PublicKeyFromSecret(secret) };
}

function decryptWithKeys(ciphertextB64: unknown, recipient: RecipientKeys, context: ValueEncryptionContext, field: string): string {
  if (typeof ciphertextB64 !== 'string') throw invalid(`${field} must be a base64 string`, field);
  if (ciphertextB64.length > MAX_CIPHERTEXT_LENGTH) {
    throw invalid(`${field} is longer than the largest encrypted value (${MAX_CIPHERTEXT_LENGTH} characters)`, field);
  }
  const bytes = base64ToBytes(ciphertextB64, field);
  if (bytes.length < MIN_LENGTH) throw invalid(`${field} is too short to be an encrypted value`, field);
  if (bytes[0] !== VALUE_ENCRYPTION_VERSION) {
    throw invalid(`${field} has unsupported encryption version ${String(bytes[0])}`, field);
  }
  const additional = aad(context);
  const recipientPub = recipient.publicKey;
  const ephemeralPub = bytes.subarray(1, 1 + EPHEMERAL_LENGTH);
  const nonce = bytes.subarray(1 + EPHEMERAL_LENGTH, HEADER_LENGTH);
  const body = bytes.subarray(HEADER_LENGTH, bytes.length - TAG_LENGTH);
  const tag = bytes.subarray(bytes.length - TAG_LENGTH);
  let shared: Uint8Array;
  try {
    shared = x25519SharedSecret(recipient.secret, ephemeralPub);
  } catch (e) {
    // A low-order ephemeral key can only come from a forged or altered ciphertext.
    if (isAppError(e)) throw unauthenticated(field);
    throw e;
  }
  const key = deriveKey(shared, ephemeralPub, recipientPub);
  let plain: Buffer;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_LENGTH });
    decipher.setAAD(additional);
    decipher.setAuthTag(tag);
    plain = Buffer.concat([decipher.update(body), decipher.final()]);
  } catch {
    throw unauthenticated(field);
  } finally {
    shared.fill(0);
    key.fill(0);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(plain);
  } catch {
    throw invalid(`${field} does not decrypt to UTF-8 text`, field);
  }
}

export type PlainSubject = Record<string, string | number>;
export type EncryptedSubject = Record<string, string>;

/**
 * Encrypts every member of a credentialSubject, `id` included (spec 2.4), each under its own
 * attribute context. The plaintext of each value is its JSON text (RFC 8785): the string
 * "30" is encrypted as `"30"` (with quotes) and the number 30 as `30`, so decryption restores the
 * exact type and a number can never come back as a string or vice versa.
 *
 * @throws AppError INVALID_INPUT for values that are neither strings nor finite numbers.
 */
export function encryptSubject(
  subject: Readonly<Record<string, unknown>>,
  holderEd25519PublicKey: Uint8Array,
  credentialId: string,
  options: ValueEncryptionOptions = {},
): EncryptedSubject {
  const out: EncryptedSubject = {};
  for (const [attribute, value] of Object.entries(subject)) {
    const ok = typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
    if (!ok) throw invalid(`${attribute} must be a string or a number to be encrypted`, attribute);
    out[attribute] = encryptValue(canonicalize(value), holderEd25519PublicKey, { attribute, credentialId }, options);
  }
  return out;
}

/**
 * Checks, before any decryption, that `encrypted` is an object of at most
 * {@link MAX_ENCRYPTED_VALUES} strings of at most {@link MAX_CIPHERTEXT_LENGTH} characters.
 *
 * @throws AppError INVALID_INPUT naming the limit that was crossed.
 */
export function encryptedSubjectEntries(encrypted: unknown): [string, string][] {
  if (encrypted === null || typeof encrypted !== 'object' || Array.isArray(encrypted)) {
    throw invalid('credentialSubject must be an object of encrypted values', 'credentialSubject');
  }
  const entries = Object.entries(encrypted as Record<string, unknown>);
  if (entries.length > MAX_ENCRYPTED_VALUES) {
    throw invalid(
      `credentialSubject holds ${entries.length} values; at most ${MAX_ENCRYPTED_VALUES} (the ${MAX_ATTRIBUTES} attributes a schema may have, and the id) are decrypted`,
      'credentialSubject',
    );
  }
  for (const [attribute, value] of entries) {
    if (typeof value !== 'string') throw invalid(`${attribute} must be a base64 string`, attribute);
    if (value.length > MAX_CIPHERTEXT_LENGTH) {
      throw invalid(`${attribute} is longer than the largest encrypted value (${MAX_CIPHERTEXT_LENGTH} characters)`, attribute);
    }
  }
  return entries as [string, string][];
}

function restoreValue(attribute: string, text: string): string | number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'string' && typeof parsed !== 'number') {
    throw invalid(`${attribute} does not decrypt to a JSON string or number`, attribute);
  }
  return parsed;
}

/**
 * Inverse of {@link encryptSubject}: decrypts every member and restores strings and numbers
 * from their JSON text. The subject must pass {@link encryptedSubjectEntries} first.
 *
 * @throws AppError as {@link decryptValue}, with the attribute as the detail field;
 * INVALID_INPUT when the subject is not an object of strings, exceeds the limits, or a plaintext
 * is not a JSON string or number.
 */
export function decryptSubject(encrypted: unknown, holderSeed: Uint8Array, credentialId: string): PlainSubject {
  const entries = encryptedSubjectEntries(encrypted);
  const keys = recipientKeys(holderSeed);
  try {
    const out: PlainSubject = {};
    for (const [attribute, value] of entries) out[attribute] = restoreValue(attribute, decryptWithKeys(value, keys, { attribute, credentialId }, attribute));
    return out;
  } finally {
    keys.secret.fill(0);
  }
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * {@link decryptSubject} for request handlers: the same checks and result, but it gives the event
 * loop a turn every {@link DECRYPT_SLICE} values, so even the largest allowed subject (about
 * 130 ms of CPU) never holds other requests for more than a few milliseconds.
 */
export async function decryptSubjectYielding(encrypted: unknown, holderSeed: Uint8Array, credentialId: string): Promise<PlainSubject> {
  const entries = encryptedSubjectEntries(encrypted);
  const keys = recipientKeys(holderSeed);
  try {
    const out: PlainSubject = {};
    for (let i = 0; i < entries.length; i++) {
      if (i > 0 && i % DECRYPT_SLICE === 0) await nextTurn();
      const [attribute, value] = entries[i] as [string, string];
      out[attribute] = restoreValue(attribute, decryptWithKeys(value, keys, { attribute, credentialId }, attribute));
    }
    return out;
  } finally {
    keys.secret.fill(0);
  }
}
