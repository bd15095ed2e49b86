import { p256, p384 } from '@noble/curves/nist.js';
import { AppError } from '../../src/errors';
import {
  DID_KEY_TYPES,
  didKeyDocument,
  didKeyFingerprint,
  didKeyFromPublicKey,
  parseDidKey,
  UNSUPPORTED_DID_KEY_CODECS,
  type DidKeyPublicKeyFormat,
  type DidKeyType,
} from '../../src/domain/dids/did-key';
import type { DidDocument } from '../../src/domain/dids/did-document.types';
import {
  addMulticodecPrefix,
  base58btcDecode,
  base58btcEncode,
  base64UrlToBytes,
  hexToBytes,
} from '../../src/domain/encoding';
import {
  generateEd25519Keypair,
  generateSecp256k1Keypair,
  jwkToSecp256k1PrivateKey,
  secp256k1PublicKeyFromPrivate,
} from '../../src/domain/keys';
import { readSharedJson, readSharedText } from '../support/shared';
import { expectAppError } from '../support/app-error';

interface Jwk {
  kty: string;
  crv: string;
  x: string;
  y?: string;
  d?: string;
}
interface KeyPair {
  publicKeyBase58?: string;
  privateKeyBase58?: string;
  publicKeyJwk?: Jwk;
  privateKeyJwk?: Jwk;
}
interface Entry {
  seed?: string;
  verificationKeyPair?: KeyPair;
  verificationMethod?: KeyPair;
  keyAgreementKeyPair?: KeyPair;
  didDocument: DidDocument;
}

const file = (name: string): [string, Entry][] =>
  Object.entries(readSharedJson<Record<string, Entry>>('vectors', 'did-key', name));

const edEntries = file('ed25519-x25519.json');
const secpEntries = file('secp256k1.json');
const nistAll = file('nist-curves.json');
const crvOf = (e: Entry): string | undefined => e.verificationMethod?.publicKeyJwk?.crv;
/** P-256 and P-384 only (JWK and P256Key2021 entries); P-521 is unsupported. */
const nistEntries = nistAll.filter(([, e]) => crvOf(e) !== 'P-521');
const p521Entries = nistAll.filter(([, e]) => crvOf(e) === 'P-521');
const x25519Docs = Object.entries(
  readSharedJson<{ didDocument: Record<string, DidDocument> }>('vectors', 'did-key', 'x25519.json').didDocument,
);
const blsEntries = file('bls12381.json');
const rsaEntries = file('rsa.json');

const allDocs: [string, string, DidDocument][] = [
  ...edEntries.map(([did, e]): [string, string, DidDocument] => ['ed25519-x25519', did, e.didDocument]),
  ...secpEntries.map(([did, e]): [string, string, DidDocument] => ['secp256k1', did, e.didDocument]),
  ...x25519Docs.map(([did, doc]): [string, string, DidDocument] => ['x25519', did, doc]),
  ...nistEntries.map(([did, e]): [string, string, DidDocument] => ['nist-curves', did, e.didDocument]),
];

/** The representation a vector chose, read off its first verification method. */
function formatOf(doc: DidDocument): DidKeyPublicKeyFormat {
  return doc.verificationMethod?.[0]?.publicKeyJwk ? 'publicKeyJwk' : 'publicKeyBase58';
}

function typeOfPrefix(did: string): DidKeyType {
  if (did.startsWith('did:key:z6Mk')) return 'Ed25519';
  if (did.startsWith('did:key:z6LS')) return 'X25519';
  if (did.startsWith('did:key:zQ3s')) return 'secp256k1';
  if (did.startsWith('did:key:zDn')) return 'P-256';
  if (did.startsWith('did:key:z82')) return 'P-384';
  throw new Error(`unexpected vector ${did}`);
}

describe('didKeyDocument equals the published DID documents', () => {
  it('covers every supported vector file', () => {
    expect(edEntries).toHaveLength(5);
    expect(secpEntries).toHaveLength(6);
    expect(x25519Docs).toHaveLength(4);
    expect(nistEntries).toHaveLength(5);
    expect(new Set(allDocs.map(([, did]) => typeOfPrefix(did)))).toEqual(new Set(DID_KEY_TYPES));
  });

  it.each(allDocs)('%s %s', (_, did, expected) => {
    expect(didKeyDocument(did, { publicKeyFormat: formatOf(expected) })).toStrictEqual(expected);
  });

  it.each(allDocs.filter(([, did, doc]) => {
    const type = typeOfPrefix(did);
    const jwkByDefault = type === 'P-256' || type === 'P-384';
    return (formatOf(doc) === 'publicKeyJwk') === jwkByDefault;
  }))('default representation: %s %s', (_, did, expected) => {
    expect(didKeyDocument(did)).toStrictEqual(expected);
  });

  it('refuses publicKeyBase58 for P-384 (no such verification method type)', () => {
    const did = nistEntries.find(([d]) => typeOfPrefix(d) === 'P-384')![0];
    expectAppError(() => didKeyDocument(did, { publicKeyFormat: 'publicKeyBase58' }), 'INVALID_INPUT', /publicKeyJwk/);
  });

  it('refuses an unknown publicKeyFormat', () => {
    expectAppError(
      () => didKeyDocument(edEntries[0]![0], { publicKeyFormat: 'publicKeyHex' as DidKeyPublicKeyFormat }),
      'INVALID_INPUT',
    );
  });
});

describe('parseDidKey / didKeyFromPublicKey', () => {
  it.each(allDocs)('%s %s round-trips', (_, did) => {
    const parsed = parseDidKey(did);
    expect(parsed.type).toBe(typeOfPrefix(did));
    expect(parsed.fingerprint).toBe(did.slice('did:key:'.length));
    expect(didKeyFromPublicKey(parsed.type, parsed.publicKey)).toBe(did);
    expect(didKeyFingerprint(parsed.type, parsed.publicKey)).toBe(parsed.fingerprint);
  });

  it('compresses uncompressed EC keys', () => {
    const [did, e] = secpEntries.find(([, x]) => x.verificationKeyPair?.publicKeyJwk)!;
    const jwk = e.verificationKeyPair!.publicKeyJwk!;
    const uncompressed = Uint8Array.from([4, ...base64UrlToBytes(jwk.x), ...base64UrlToBytes(jwk.y ?? '')]);
    expect(didKeyFromPublicKey('secp256k1', uncompressed)).toBe(did);

    const [pDid, pe] = nistEntries.find(([, x]) => crvOf(x) === 'P-256')!;
    const pJwk = pe.verificationMethod!.publicKeyJwk!;
    const pUncompressed = Uint8Array.from([4, ...base64UrlToBytes(pJwk.x), ...base64UrlToBytes(pJwk.y ?? '')]);
    expect(didKeyFromPublicKey('P-256', pUncompressed)).toBe(pDid);
  });

  it('makes DIDs for freshly generated keys', () => {
    const ed = generateEd25519Keypair();
    expect(parseDidKey(didKeyFromPublicKey('Ed25519', ed.publicKey)).publicKey).toEqual(ed.publicKey);
    const k1 = generateSecp256k1Keypair();
    expect(didKeyFromPublicKey('secp256k1', k1.publicKey)).toMatch(/^did:key:zQ3s/);
  });

  it('rejects invalid keys with INVALID_PUBLIC_KEY and unknown types with INVALID_INPUT', () => {
    expectAppError(() => didKeyFromPublicKey('Ed25519', new Uint8Array(31)), 'INVALID_PUBLIC_KEY');
    expectAppError(() => didKeyFromPublicKey('secp256k1', new Uint8Array(33)), 'INVALID_PUBLIC_KEY');
    expectAppError(() => didKeyFromPublicKey('P-384', new Uint8Array(33)), 'INVALID_PUBLIC_KEY');
    expectAppError(() => didKeyFromPublicKey('X25519', new Uint8Array(33)), 'INVALID_PUBLIC_KEY');
    expectAppError(() => didKeyFromPublicKey('RSA' as DidKeyType, new Uint8Array(33)), 'INVALID_INPUT');
  });
});

describe('vector key material derives the listed DIDs', () => {
  it.each(edEntries)('Ed25519 seed of %s', (did, e) => {
    const seed = hexToBytes(e.seed ?? '');
    const { publicKey } = generateEd25519Keypair(() => Uint8Array.from(seed));
    const vkp = e.verificationKeyPair!;
    const expected = vkp.publicKeyBase58 ? base58btcDecode(vkp.publicKeyBase58) : base64UrlToBytes(vkp.publicKeyJwk?.x ?? '');
    expect(publicKey).toEqual(expected);
    if (vkp.privateKeyJwk?.d) expect(base64UrlToBytes(vkp.privateKeyJwk.d)).toEqual(seed);
    expect(didKeyFromPublicKey('Ed25519', publicKey)).toBe(did);
    // The keyAgreement id in the vector is the did:key fingerprint of the derived X25519 key.
    const kaId = e.didDocument.keyAgreement?.[0];
    const kaPublic = e.keyAgreementKeyPair!.publicKeyBase58
      ? base58btcDecode(e.keyAgreementKeyPair!.publicKeyBase58)
      : base64UrlToBytes(e.keyAgreementKeyPair!.publicKeyJwk?.x ?? '');
    expect(kaId).toBe(`${did}#${didKeyFingerprint('X25519', kaPublic)}`);
  });

  it.each(secpEntries)('secp256k1 private key of %s', (did, e) => {
    const vkp = e.verificationKeyPair!;
    const sk = vkp.privateKeyJwk
      ? jwkToSecp256k1PrivateKey(vkp.privateKeyJwk)
      : base58btcDecode(vkp.privateKeyBase58 ?? '');
    if (e.seed !== undefined) expect(sk).toEqual(hexToBytes(e.seed));
    expect(didKeyFromPublicKey('secp256k1', secp256k1PublicKeyFromPrivate(sk))).toBe(did);
  });

  it.each(nistEntries)('NIST private key of %s', (did, e) => {
    const type = typeOfPrefix(did);
    const vm = e.verificationMethod!;
    const d = vm.privateKeyJwk?.d ? base64UrlToBytes(vm.privateKeyJwk.d) : base58btcDecode(vm.privateKeyBase58 ?? '');
    const curve = type === 'P-256' ? p256 : p384;
    expect(didKeyFromPublicKey(type, curve.getPublicKey(d, true))).toBe(did);
  });
});

describe('unsupported and malformed did:keys are INVALID_DID', () => {
  const table = new Map(
    readSharedText('vectors', 'multiformats', 'multicodec-table.csv')
      .split('\n')
      .slice(1)
      .map((line) => line.split(',').map((c) => c.trim()))
      .map((r) => [r[0], Number(r[2])]),
  );

  it('names unsupported codecs as in the multicodec table', () => {
    for (const [code, name] of Object.entries(UNSUPPORTED_DID_KEY_CODECS)) {
      expect(table.get(name)).toBe(Number(code));
    }
  });

  it.each([
    ...blsEntries.map(([did]): [string, string, string] => ['bls12381', did, did.startsWith('did:key:z5Tc') ? 'bls12_381-g1g2-pub' : 'bls12_381-g2-pub']),
    ...rsaEntries.map(([did]): [string, string, string] => ['rsa', did, 'rsa-pub']),
    ...p521Entries.map(([did]): [string, string, string] => ['p521', did, 'p521-pub']),
  ])('%s %s is rejected as an unsupported key type', (_, did, codecName) => {
    const err = expectAppError(() => parseDidKey(did), 'INVALID_DID', /unsupported/);
    expect(err.message).toContain(codecName);
    expect(err.message).toContain('Ed25519, X25519, secp256k1, P-256, P-384');
    expect(err.message).not.toContain(did.slice(8));
    expectAppError(() => didKeyDocument(did), 'INVALID_DID', /unsupported/);
  });

  const ed = base58btcDecode(edEntries[0]![0].slice('did:key:z'.length)).slice(2);
  const enc = (code: number, key: Uint8Array): string => `did:key:z${base58btcEncode(addMulticodecPrefix(code, key))}`;
  const secpUncompressed = (() => {
    const jwk = secpEntries[5]![1].verificationKeyPair!.publicKeyJwk!;
    return Uint8Array.from([4, ...base64UrlToBytes(jwk.x), ...base64UrlToBytes(jwk.y ?? '')]);
  })();

  it.each([
    ['another method', 'did:web:example.com'],
    ['no identifier', 'did:key:'],
    ['no multibase prefix', `did:key:${edEntries[0]![0].slice(9)}`],
    ['base64url multibase', `did:key:u${Buffer.from(ed).toString('base64url')}`],
    ['invalid base58', 'did:key:z6Mk0OIl'],
    ['a DID URL with fragment', `${edEntries[0]![0]}#key-1`],
    ['a DID URL with path', `${edEntries[0]![0]}/path`],
    ['upper-case method', edEntries[0]![0].replace('did:key', 'did:KEY')],
    ['non-string', 7 as unknown as string],
    ['unknown multicodec (raw 0x55)', enc(0x55, ed)],
    ['a private key multicodec', enc(0x1300, ed)],
    ['truncated varint', 'did:key:z2'],
    ['non-minimal varint', `did:key:z${base58btcEncode(Uint8Array.from([0xed, 0x81, 0x00, ...ed]))}`],
    ['Ed25519 key of 31 bytes', enc(0xed, ed.slice(1))],
    ['Ed25519 key of 33 bytes', enc(0xed, Uint8Array.from([...ed, 0]))],
    ['Ed25519 key not on the curve', enc(0xed, Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 2 : 0)))],
    ['uncompressed secp256k1 key', enc(0xe7, secpUncompressed)],
    ['secp256k1 key with prefix 0x05', enc(0xe7, Uint8Array.from([5, ...secpUncompressed.slice(1, 33)]))],
    ['P-256 key of P-384 length', enc(0x1200, new Uint8Array(49))],
    ['oversized identifier', `did:key:z${'1'.repeat(5000)}`],
  ])('%s', (_, did) => {
    expectAppError(() => parseDidKey(did), 'INVALID_DID');
  });
});
