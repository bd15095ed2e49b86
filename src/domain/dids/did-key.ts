import { AppError } from '../../errors';
import { bytesToBase64Url } from '../encoding/base64';
import {
  addMulticodecPrefix,
  base58btcDecode,
  base58btcEncode,
  MULTICODEC,
  splitMulticodecPrefix,
} from '../encoding/multibase';
import { parseEd25519PublicKey } from '../keys/ed25519';
import { secp256k1PublicKeyToJwk } from '../keys/es256k';
import { nistPublicKeyToJwk, parseNistPublicKey } from '../keys/nist';
import { parseSecp256k1PublicKey } from '../keys/secp256k1';
import { parseX25519PublicKey, x25519PublicKeyFromEd25519 } from '../keys/x25519';
import type { DidDocument, PublicKeyJwk, VerificationMethod } from './did-document.types';

/**
 * did:key (https://w3c-ccg.github.io/did-method-key/): `did:key:z<base58btc(varint(codec) || key)>`.
 * The document is derived from the key alone; nothing is looked up.
 */

export type DidKeyType = 'Ed25519' | 'secp256k1' | 'P-256' | 'P-384' | 'X25519';

export const DID_KEY_TYPES: readonly DidKeyType[] = ['Ed25519', 'X25519', 'secp256k1', 'P-256', 'P-384'];

export interface ParsedDidKey {
  type: DidKeyType;
  /** Raw key bytes as carried in the DID (compressed SEC1 for the EC curves). */
  publicKey: Uint8Array;
  /** The multibase value after `did:key:`; also the fragment of the key's verification method. */
  fingerprint: string;
}

/**
 * How verification methods express the key. `publicKeyBase58` selects the suite-specific types of
 * the did:key test vectors (Ed25519VerificationKey2018, X25519KeyAgreementKey2019,
 * EcdsaSecp256k1VerificationKey2019, P256Key2021); `publicKeyJwk` selects JsonWebKey2020;
 * `publicKeyMultibase` selects the current did:key form (one `Multikey` method, contexts did/v1 +
 * multikey/v1), which Data Integrity verifiers such as Digital Bazaar's expect.
 */
export type DidKeyPublicKeyFormat = 'publicKeyBase58' | 'publicKeyJwk' | 'publicKeyMultibase';

export interface DidKeyDocumentOptions {
  /** Defaults to publicKeyBase58 for Ed25519, X25519 and secp256k1, publicKeyJwk for P-256/P-384. */
  publicKeyFormat?: DidKeyPublicKeyFormat;
}

const DID_KEY_PREFIX = 'did:key:';
/** Bounds base58 decoding work; even RSA-4096 did:keys (unsupported, but named) are shorter. */
const MAX_FINGERPRINT_LENGTH = 2048;
const SUPPORTED = DID_KEY_TYPES.join(', ');

interface KeySpec {
  codec: number;
  /** Exact byte length in a did:key (EC keys are compressed there). */
  length: number;
  /** Validates the key (throws INVALID_PUBLIC_KEY) and returns its canonical did:key bytes. */
  normalize(publicKey: Uint8Array): Uint8Array;
}

const SPECS: Record<DidKeyType, KeySpec> = {
  Ed25519: { codec: MULTICODEC['ed25519-pub'], length: 32, normalize: (k) => parseEd25519PublicKey(k) },
  X25519: { codec: MULTICODEC['x25519-pub'], length: 32, normalize: (k) => parseX25519PublicKey(k) },
  secp256k1: { codec: MULTICODEC['secp256k1-pub'], length: 33, normalize: (k) => parseSecp256k1PublicKey(k) },
  'P-256': { codec: MULTICODEC['p256-pub'], length: 33, normalize: (k) => parseNistPublicKey('P-256', k) },
  'P-384': { codec: MULTICODEC['p384-pub'], length: 49, normalize: (k) => parseNistPublicKey('P-384', k) },
};

/** Multicodecs that are recognised but deliberately not supported, so the error can name them. */
export const UNSUPPORTED_DID_KEY_CODECS: Readonly<Record<number, string>> = {
  0xea: 'bls12_381-g1-pub',
  0xeb: 'bls12_381-g2-pub',
  0xee: 'bls12_381-g1g2-pub',
  0xef: 'sr25519-pub',
  0x1202: 'p521-pub',
  0x1203: 'ed448-pub',
  0x1204: 'x448-pub',
  0x1205: 'rsa-pub',
  0x1300: 'ed25519-priv',
  0x1301: 'secp256k1-priv',
  0x1302: 'x25519-priv',
  0x1306: 'p256-priv',
};

function invalidDid(message: string): AppError {
  return new AppError('INVALID_DID', message, [{ field: 'did', message }]);
}

function assertType(type: DidKeyType): KeySpec {
  if (!Object.hasOwn(SPECS, type)) {
    throw new AppError('INVALID_INPUT', `key type must be one of: ${SUPPORTED}`);
  }
  return SPECS[type];
}

/** The did:key multibase fingerprint (`z...`) of a public key; EC keys may be given uncompressed. */
export function didKeyFingerprint(type: DidKeyType, publicKey: Uint8Array): string {
  const spec = assertType(type);
  const key = spec.normalize(publicKey);
  return `z${base58btcEncode(addMulticodecPrefix(spec.codec, key))}`;
}

/** Builds `did:key:z...` for a public key. Throws INVALID_PUBLIC_KEY if the key is not valid for `type`. */
export function didKeyFromPublicKey(type: DidKeyType, publicKey: Uint8Array): string {
  return `${DID_KEY_PREFIX}${didKeyFingerprint(type, publicKey)}`;
}

function typeOfCodec(code: number): DidKeyType {
  for (const type of DID_KEY_TYPES) if (SPECS[type].codec === code) return type;
  const hex = `0x${code.toString(16)}`;
  const name = UNSUPPORTED_DID_KEY_CODECS[code];
  if (name !== undefined) {
    throw invalidDid(`did:key key type ${name} (${hex}) is unsupported; supported key types: ${SUPPORTED}`);
  }
  throw invalidDid(`did:key multicodec ${hex} is not a supported key type; supported key types: ${SUPPORTED}`);
}

/**
 * Parses and validates a did:key: base58btc multibase, a known public-key multicodec, the exact
 * key length, and a valid curve point. DID URLs (with path, query or fragment) are not DIDs and
 * are rejected. All failures are INVALID_DID; unsupported key types are named in the message.
 */
export function parseDidKey(did: string): ParsedDidKey {
  if (typeof did !== 'string' || !did.startsWith(DID_KEY_PREFIX)) {
    throw invalidDid('did must start with did:key:');
  }
  const fingerprint = did.slice(DID_KEY_PREFIX.length);
  if (!fingerprint.startsWith('z')) {
    throw invalidDid('did:key identifier must be base58btc multibase (z prefix)');
  }
  if (fingerprint.length > MAX_FINGERPRINT_LENGTH) throw invalidDid('did:key identifier is too long');
  let code: number;
  let data: Uint8Array;
  try {
    ({ code, data } = splitMulticodecPrefix(base58btcDecode(fingerprint.slice(1), 'did'), 'did'));
  } catch {
    throw invalidDid('did:key identifier is not a valid base58btc multicodec value');
  }
  const type = typeOfCodec(code);
  const spec = SPECS[type];
  if (data.length !== spec.length) {
    throw invalidDid(`did:key ${type} public key must be ${spec.length} bytes`);
  }
  let publicKey: Uint8Array;
  try {
    publicKey = spec.normalize(data);
  } catch {
    throw invalidDid(`did:key public key is not a valid ${type} key`);
  }
  return { type, publicKey, fingerprint };
}

const DID_CONTEXT = 'https://www.w3.org/ns/did/v1';
const JWS_2020_CONTEXT = 'https://w3id.org/security/suites/jws-2020/v1';
export const MULTIKEY_CONTEXT = 'https://w3id.org/security/multikey/v1';

/** Suite-specific publicKeyBase58 verification method types, as in the did:key test vectors. */
const BASE58_SUITES: Partial<Record<DidKeyType, { type: string; context: string }>> = {
  Ed25519: { type: 'Ed25519VerificationKey2018', context: 'https://w3id.org/security/suites/ed25519-2018/v1' },
  X25519: { type: 'X25519KeyAgreementKey2019', context: 'https://w3id.org/security/suites/x25519-2019/v1' },
  secp256k1: {
    type: 'EcdsaSecp256k1VerificationKey2019',
    context: 'https://w3id.org/security/suites/secp256k1-2019/v1',
  },
  'P-256': { type: 'P256Key2021', context: 'https://w3id.org/security/suites/multikey-2021/v1' },
};

function publicJwk(type: DidKeyType, key: Uint8Array): PublicKeyJwk {
  switch (type) {
    case 'Ed25519':
    case 'X25519':
      return { kty: 'OKP', crv: type, x: bytesToBase64Url(key) };
    case 'secp256k1':
      return { ...secp256k1PublicKeyToJwk(key) };
    case 'P-256':
    case 'P-384':
      return { ...nistPublicKeyToJwk(type, key) };
  }
}

function verificationMethod(
  did: string,
  type: DidKeyType,
  key: Uint8Array,
  format: DidKeyPublicKeyFormat,
): { method: VerificationMethod; context: string } {
  const fingerprint = didKeyFingerprint(type, key);
  const id = `${did}#${fingerprint}`;
  if (format === 'publicKeyMultibase') {
    // Multikey's publicKeyMultibase is the same multicodec-prefixed base58btc value as the fingerprint.
    return { method: { id, type: 'Multikey', controller: did, publicKeyMultibase: fingerprint }, context: MULTIKEY_CONTEXT };
  }
  if (format === 'publicKeyJwk') {
    return {
      method: { id, type: 'JsonWebKey2020', controller: did, publicKeyJwk: publicJwk(type, key) },
      context: JWS_2020_CONTEXT,
    };
  }
  const suite = BASE58_SUITES[type];
  if (!suite) {
    throw new AppError('INVALID_INPUT', `${type} keys have no publicKeyBase58 representation; use publicKeyJwk`);
  }
  return {
    method: { id, type: suite.type, controller: did, publicKeyBase58: base58btcEncode(key) },
    context: suite.context,
  };
}

function defaultFormat(type: DidKeyType): DidKeyPublicKeyFormat {
  return type === 'P-256' || type === 'P-384' ? 'publicKeyJwk' : 'publicKeyBase58';
}

/**
 * Expands a did:key into its DID document. An Ed25519 DID also gets an X25519 keyAgreement key
 * derived from the Ed25519 key (birational map), as the did:key spec prescribes; an X25519 DID is
 * keyAgreement-only; every other key serves all five verification relationships.
 */
export function didKeyDocument(did: string, options: DidKeyDocumentOptions = {}): DidDocument {
  const parsed = parseDidKey(did);
  const id = `${DID_KEY_PREFIX}${parsed.fingerprint}`;
  const format = options.publicKeyFormat ?? defaultFormat(parsed.type);
  if (format !== 'publicKeyBase58' && format !== 'publicKeyJwk' && format !== 'publicKeyMultibase') {
    throw new AppError('INVALID_INPUT', 'publicKeyFormat must be publicKeyBase58, publicKeyJwk or publicKeyMultibase');
  }
  const primary = verificationMethod(id, parsed.type, parsed.publicKey, format);
  if (format === 'publicKeyMultibase' && parsed.type !== 'X25519') {
    // The current did:key form: one signing key, no derived X25519 key (the spec's
    // enableEncryptionKeyDerivation defaults to false), in the member order Digital Bazaar's
    // did-method-key produces, so the documents compare deep-equal.
    const ref = primary.method.id;
    return {
      '@context': [DID_CONTEXT, primary.context],
      id,
      verificationMethod: [primary.method],
      authentication: [ref],
      assertionMethod: [ref],
      capabilityDelegation: [ref],
      capabilityInvocation: [ref],
    };
  }

  if (parsed.type === 'X25519') {
    return {
      '@context': [DID_CONTEXT, primary.context],
      id,
      verificationMethod: [primary.method],
      keyAgreement: [primary.method.id],
    };
  }

  const methods = [primary];
  if (parsed.type === 'Ed25519') {
    methods.push(verificationMethod(id, 'X25519', x25519PublicKeyFromEd25519(parsed.publicKey), format));
  }
  const agreement = methods[methods.length - 1] ?? primary;
  const contexts = [DID_CONTEXT];
  for (const m of methods) if (!contexts.includes(m.context)) contexts.push(m.context);
  const ref = primary.method.id;
  return {
    '@context': contexts,
    id,
    verificationMethod: methods.map((m) => m.method),
    assertionMethod: [ref],
    authentication: [ref],
    capabilityInvocation: [ref],
    capabilityDelegation: [ref],
    keyAgreement: [agreement.method.id],
  };
}
