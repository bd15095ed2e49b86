/**
 * C2SP tlog-checkpoint bodies (c2sp.org/tlog-checkpoint) and C2SP signed notes with Ed25519
 * signatures (c2sp.org/signed-note), byte-compatible with golang.org/x/mod/sumdb/note.
 *
 * Parsing/formatting of caller-supplied checkpoints and keys throws AppError; verifying a note
 * never throws for a bad or foreign note — it reports `verified: false` with a reason.
 */
import { sha256Of } from '../hash/sha256';
import { type Ed25519KeySigner, ed25519KeySigner, nativeEd25519PublicKey, nativeEd25519Verify } from '../keys/ed25519';
import { base64 } from '@scure/base';
import { AppError } from '../../errors';
import { HASH_SIZE, equalBytes } from './hash';
import { MAX_TREE_SIZE } from './tree-math';

/** A log's tree head as carried by a checkpoint body. */
export interface Checkpoint {
  /** Log identity, e.g. `example.com/log42`. */
  readonly origin: string;
  /** Number of leaves (at most 2^53 − 1 here). */
  readonly size: number;
  /** RFC 6962/9162 root hash of the first `size` leaves (32 bytes). */
  readonly rootHash: Uint8Array;
  /** Opaque extension lines (NOT RECOMMENDED by the spec); each non-empty, without newline. */
  readonly extensions?: readonly string[];
}

/** Ed25519 signing identity of a note: key name and 32-byte RFC 8032 seed. */
export interface NoteSigner {
  readonly name: string;
  readonly seed: Uint8Array;
}

/** A trusted Ed25519 verifier key: key name and 32-byte public key. */
export interface NoteVerifier {
  readonly name: string;
  readonly publicKey: Uint8Array;
}

/** Outcome of `verifyNote`: `body` (the signed note text) is set only when verified. */
export interface NoteVerification {
  verified: boolean;
  body?: string;
  reason?: string;
}

/** Signature type byte for Ed25519 in key IDs and encoded keys (signed-note §Signature types). */
const ALG_ED25519 = 0x01;
const EM_DASH_PREFIX = '\u2014 ';
/** Same cap as the Go reference; the spec requires accepting at least 16. */
const MAX_SIGNATURES = 100;
const utf8 = new TextEncoder();

const invalid = (message: string): AppError => new AppError('INVALID_INPUT', message);

/** No lone UTF-16 surrogates (they cannot be encoded as UTF-8). */
const WELL_FORMED = /^(?:[^\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;
const FORBIDDEN_CONTROL = /[\u0000-\u0009\u000B-\u001F]/;

/** Signed-note text rule: valid UTF-8 with no ASCII control characters except newline. */
function isNoteText(s: string): boolean {
  return WELL_FORMED.test(s) && !FORBIDDEN_CONTROL.test(s);
}

/** Key names: non-empty, no Unicode spaces, no '+', no control characters. */
export function isValidKeyName(name: string): boolean {
  return name.length > 0 && isNoteText(name) && !/[\s\u0085+]/u.test(name);
}

// ---------------------------------------------------------------------------------------------
// Checkpoint body

/** `<origin>\n<size>\n<base64 root>\n[<extension>\n…]` — the note text to sign. */
export function formatCheckpoint(cp: Checkpoint): string {
  const extensions = cp.extensions ?? [];
  const lines = [cp.origin, ...extensions];
  if (cp.origin.length === 0 || !lines.every((l) => l.length > 0 && !l.includes('\n') && isNoteText(l))) {
    throw invalid('checkpoint origin and extension lines must be non-empty single lines of text');
  }
  if (!Number.isSafeInteger(cp.size) || cp.size < 0) {
    throw invalid('checkpoint size must be an integer between 0 and 2^53-1');
  }
  if (cp.rootHash.length !== HASH_SIZE) throw invalid('checkpoint root hash must be 32 bytes');
  return [cp.origin, String(cp.size), base64.encode(cp.rootHash), ...extensions].map((l) => `${l}\n`).join('');
}

/** Parses a checkpoint note text (the body, without signatures). Throws INVALID_INPUT if malformed. */
export function parseCheckpoint(text: string): Checkpoint & { extensions: string[] } {
  if (!text.endsWith('\n') || !isNoteText(text)) throw invalid('checkpoint must be text ending in a newline');
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3 || lines.some((l) => l.length === 0)) {
    throw invalid('checkpoint must have at least three lines, none empty');
  }
  const [origin, sizeText, rootText, ...extensions] = lines as [string, string, string, ...string[]];
  if (!/^(0|[1-9][0-9]*)$/.test(sizeText)) throw invalid('checkpoint size must be decimal without leading zeros');
  const size = Number(sizeText);
  if (size > MAX_TREE_SIZE) throw invalid('checkpoint size exceeds 2^53-1');
  const rootHash = decodeBase64(rootText);
  if (rootHash?.length !== HASH_SIZE) throw invalid('checkpoint root hash must be base64 of 32 bytes');
  return { origin, size, rootHash, extensions };
}

// ---------------------------------------------------------------------------------------------
// Keys

/** Strict RFC 4648 §4 base64 (padded, canonical), or undefined. */
function decodeBase64(s: string): Uint8Array | undefined {
  try {
    return base64.decode(s);
  } catch {
    return undefined;
  }
}

/** key ID = SHA-256(key name || 0x0A || 0x01 || 32-byte Ed25519 public key)[:4] (signed-note). */
export function noteKeyId(name: string, publicKey: Uint8Array): Uint8Array {
  return sha256Of([utf8.encode(name), Uint8Array.of(0x0a, ALG_ED25519), publicKey]).slice(0, 4);
}

const toHex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

function checkName(name: string, code: 'INVALID_PUBLIC_KEY' | 'INVALID_PRIVATE_KEY' | 'INVALID_INPUT'): void {
  if (!isValidKeyName(name)) throw new AppError(code, 'key name must be non-empty, without spaces or "+"');
}

/** `<name>+<hex key ID>+<base64(0x01 || public key)>`, the Go note verifier key encoding. */
export function formatVerifierKey(name: string, publicKey: Uint8Array): string {
  checkName(name, 'INVALID_PUBLIC_KEY');
  if (publicKey.length !== 32) throw new AppError('INVALID_PUBLIC_KEY', 'Ed25519 public key must be 32 bytes');
  const material = base64.encode(Uint8Array.of(ALG_ED25519, ...publicKey));
  return `${name}+${toHex(noteKeyId(name, publicKey))}+${material}`;
}

/** Splits `<name>+<8 hex>+<base64(0x01 || key)>` and checks the key ID. Lowercase hex only. */
function parseKey(
  encoded: string,
  code: 'INVALID_PUBLIC_KEY' | 'INVALID_PRIVATE_KEY',
): { name: string; keyId: Uint8Array; key: Uint8Array } {
  const fail = (): AppError => new AppError(code, 'malformed note key');
  const parts = encoded.split('+');
  // The base64 key material may itself contain '+', so rejoin everything after the second '+'.
  const [name = '', idHex = '', ...rest] = parts;
  const material = decodeBase64(rest.join('+'));
  if (rest.length === 0 || !isValidKeyName(name) || !/^[0-9a-f]{8}$/.test(idHex)) throw fail();
  if (material?.length !== 33 || material[0] !== ALG_ED25519) throw fail();
  return { name, keyId: Uint8Array.from(idHex.match(/../g) ?? [], (h) => parseInt(h, 16)), key: material.slice(1) };
}

/** Parses a verifier key string; throws INVALID_PUBLIC_KEY if malformed or its key ID is wrong. */
export function parseVerifierKey(vkey: string): NoteVerifier & { keyId: Uint8Array } {
  const { name, keyId, key } = parseKey(vkey, 'INVALID_PUBLIC_KEY');
  if (!equalBytes(keyId, noteKeyId(name, key))) {
    throw new AppError('INVALID_PUBLIC_KEY', 'note key ID does not match the key');
  }
  return { name, keyId, publicKey: key };
}

/** `PRIVATE+KEY+<name>+<hex key ID>+<base64(0x01 || seed)>`, the Go note signer key encoding. */
export function formatSignerKey(signer: NoteSigner): string {
  const publicKey = publicKeyOf(signer.seed);
  checkName(signer.name, 'INVALID_PRIVATE_KEY');
  const material = base64.encode(Uint8Array.of(ALG_ED25519, ...signer.seed));
  return `PRIVATE+KEY+${signer.name}+${toHex(noteKeyId(signer.name, publicKey))}+${material}`;
}

/** Parses a signer key string; throws INVALID_PRIVATE_KEY if malformed or its key ID is wrong. */
export function parseSignerKey(skey: string): NoteSigner & { keyId: Uint8Array } {
  if (!skey.startsWith('PRIVATE+KEY+')) throw new AppError('INVALID_PRIVATE_KEY', 'malformed note key');
  const { name, keyId, key } = parseKey(skey.slice('PRIVATE+KEY+'.length), 'INVALID_PRIVATE_KEY');
  if (!equalBytes(keyId, noteKeyId(name, publicKeyOf(key)))) {
    throw new AppError('INVALID_PRIVATE_KEY', 'note key ID does not match the key');
  }
  return { name, keyId, seed: key };
}

/** The Ed25519 public key of a 32-byte seed. */
export function publicKeyOf(seed: Uint8Array): Uint8Array {
  if (seed.length !== 32) throw new AppError('INVALID_PRIVATE_KEY', 'Ed25519 seed must be 32 bytes');
  return nativeEd25519PublicKey(seed);
}

// ---------------------------------------------------------------------------------------------
// Signed notes

/**
 * The imported key and key ID of each signer object: a log's heads are signed by one long-lived
 * signer (PgLogHeads holds it for the life of the process), and importing the seed and deriving its
 * public key for every head cost more than the signature. Keyed by the object, so a signer built
 * per call is prepared per call, as before; the seed is read once (signers are never mutated).
 */
const preparedSigners = new WeakMap<NoteSigner, { readonly key: Ed25519KeySigner; readonly keyId: Uint8Array }>();

function preparedSigner(signer: NoteSigner): { readonly key: Ed25519KeySigner; readonly keyId: Uint8Array } {
  let prepared = preparedSigners.get(signer);
  if (!prepared) {
    if (signer.seed.length !== 32) throw new AppError('INVALID_PRIVATE_KEY', 'Ed25519 seed must be 32 bytes');
    const key = ed25519KeySigner(signer.seed);
    prepared = { key, keyId: noteKeyId(signer.name, key.publicKey) };
    preparedSigners.set(signer, prepared);
  }
  return prepared;
}

/**
 * Signs `body` (note text, ending in a newline) and returns the signed note
 * `body + "\n" + "— <name> <base64(key ID || Ed25519 signature)>\n"`. Ed25519 is deterministic,
 * so the same body and key always give the same note.
 */
export function signNote(body: string, signer: NoteSigner): string {
  checkName(signer.name, 'INVALID_PRIVATE_KEY');
  if (!body.endsWith('\n') || !isNoteText(body)) {
    throw invalid('note text must be UTF-8 ending in a newline, without control characters');
  }
  const prepared = preparedSigner(signer);
  const signature = prepared.key.sign(utf8.encode(body));
  const blob = new Uint8Array(4 + signature.length);
  blob.set(prepared.keyId);
  blob.set(signature, 4);
  return `${body}\n${EM_DASH_PREFIX}${signer.name} ${base64.encode(blob)}\n`;
}

interface SignatureLine {
  name: string;
  keyId: Uint8Array;
  signature: Uint8Array;
}

/** Splits a signed note into text and signature lines, or undefined when malformed. */
function splitNote(note: string): { body: string; sigs: SignatureLine[] } | undefined {
  if (!isNoteText(note)) return undefined;
  // The text is separated from the signatures by the last blank line; signature lines are never empty.
  const split = note.lastIndexOf('\n\n');
  if (split < 0) return undefined;
  const body = note.slice(0, split + 1);
  const block = note.slice(split + 2);
  if (block.length === 0 || !block.endsWith('\n')) return undefined;
  const lines = block.slice(0, -1).split('\n');
  if (lines.length > MAX_SIGNATURES) return undefined;
  const sigs: SignatureLine[] = [];
  for (const line of lines) {
    if (!line.startsWith(EM_DASH_PREFIX)) return undefined;
    const rest = line.slice(EM_DASH_PREFIX.length);
    const space = rest.indexOf(' ');
    if (space < 0) return undefined;
    const name = rest.slice(0, space);
    const blob = decodeBase64(rest.slice(space + 1));
    if (!isValidKeyName(name) || blob === undefined || blob.length < 5) return undefined;
    sigs.push({ name, keyId: blob.slice(0, 4), signature: blob.slice(4) });
  }
  return { body, sigs };
}

function ed25519Verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  try {
    // Strict RFC 8032 (not ZIP-215) decoding, like Go's crypto/ed25519 for honest keys; node:crypto
    // does the arithmetic with noble's strict key checks in front (keys/ed25519.ts).
    return publicKey.length === 32 && nativeEd25519Verify(signature, message, publicKey);
  } catch {
    return false;
  }
}

/**
 * Verifies a signed note against one trusted Ed25519 key, per signed-note §Signatures:
 * signature lines whose (name, key ID) differ from the key are ignored; every line that matches
 * must verify (one bad one rejects the note); at least one must match. Returns the note text as
 * `body` when verified. Never throws for malformed or foreign notes. A note received as bytes
 * should be decoded with `new TextDecoder('utf-8', { fatal: true })` so that invalid UTF-8 is
 * rejected instead of being replaced with U+FFFD.
 */
export function verifyNote(note: string, verifier: NoteVerifier): NoteVerification {
  const parsed = splitNote(note);
  if (parsed === undefined) return { verified: false, reason: 'malformed note' };
  if (verifier.publicKey.length !== 32 || !isValidKeyName(verifier.name)) {
    return { verified: false, reason: 'invalid verifier key' };
  }
  const keyId = noteKeyId(verifier.name, verifier.publicKey);
  const mine = parsed.sigs.filter((s) => s.name === verifier.name && equalBytes(s.keyId, keyId));
  if (mine.length === 0) return { verified: false, reason: 'no signature from the trusted key' };
  const message = utf8.encode(parsed.body);
  if (!mine.every((s) => ed25519Verify(s.signature, message, verifier.publicKey))) {
    return { verified: false, reason: 'invalid signature' };
  }
  return { verified: true, body: parsed.body };
}

/**
 * Verifies a signed checkpoint and parses its body. When `origin` is given, the checkpoint must
 * be for that log. Never throws for bad notes or bodies.
 */
export function openCheckpoint(
  note: string,
  verifier: NoteVerifier,
  origin?: string,
): { verified: boolean; checkpoint?: Checkpoint & { extensions: string[] }; reason?: string } {
  const result = verifyNote(note, verifier);
  if (!result.verified || result.body === undefined) {
    return { verified: false, reason: result.reason ?? 'not verified' };
  }
  let checkpoint: Checkpoint & { extensions: string[] };
  try {
    checkpoint = parseCheckpoint(result.body);
  } catch {
    return { verified: false, reason: 'malformed checkpoint' };
  }
  if (origin !== undefined && checkpoint.origin !== origin) return { verified: false, reason: 'unexpected origin' };
  return { verified: true, checkpoint };
}
