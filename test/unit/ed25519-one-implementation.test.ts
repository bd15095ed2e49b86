/**
 * One Ed25519 implementation (issue 20): src/domain/keys/ed25519.ts signs, verifies, derives and
 * generates on node:crypto; @noble/curves is left only where OpenSSL has no equivalent (strict
 * point decoding there, the Edwards-to-Montgomery conversion of x25519.ts). A second implementation
 * added anywhere in src/ fails here.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ed25519PointCheck, ed25519Sign, ed25519Verify, generateEd25519Keypair, parseEd25519PublicKey } from '../../src/domain/keys';
import { AppError } from '../../src/errors';

const SRC = path.resolve(__dirname, '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const files = sources(SRC).map((file) => ({ rel: path.relative(SRC, file).split(path.sep).join('/'), text: readFileSync(file, 'utf8') }));
const matching = (pattern: RegExp): string[] => files.filter((f) => pattern.test(f.text)).map((f) => f.rel).sort();

// RFC 8032 §7.1 TEST 2.
const SEED = Buffer.from('4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb', 'hex');
const PUBLIC = '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c';
const MESSAGE = Buffer.from('72', 'hex');
const SIGNATURE =
  '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00';

describe('one Ed25519 implementation', () => {
  it('only src/domain/keys imports @noble/curves/ed25519: the strict point check and the x25519 conversion', () => {
    expect(matching(/@noble\/curves\/ed25519/)).toEqual(['domain/keys/ed25519.ts', 'domain/keys/x25519.ts']);
  });

  it('only src/domain/keys/ed25519.ts signs or verifies Ed25519 with node:crypto or generates its keys', () => {
    // node:crypto's sign/verify take a null digest for Ed25519 only; a generateKeyPairSync('ed25519') is a second generator.
    expect(matching(/\b(sign|verify)\(\s*null\b|generateKeyPair(Sync)?\(\s*['"]ed25519['"]|crv:\s*'Ed25519',\s*d:/)).toEqual(['domain/keys/ed25519.ts']);
  });

  it('reproduces RFC 8032 TEST 2 through the checked functions', () => {
    const pair = generateEd25519Keypair(() => Uint8Array.from(SEED));
    expect(Buffer.from(pair.publicKey).toString('hex')).toBe(PUBLIC);
    const signature = ed25519Sign(MESSAGE, pair.privateKey);
    expect(Buffer.from(signature).toString('hex')).toBe(SIGNATURE);
    expect(ed25519Verify(signature, MESSAGE, pair.publicKey)).toBe(true);
  });

  it('generates distinct 32-byte seeds whose signatures verify under their public key', () => {
    const a = generateEd25519Keypair();
    const b = generateEd25519Keypair();
    expect(a.privateKey).toHaveLength(32);
    expect(Buffer.from(a.privateKey).equals(Buffer.from(b.privateKey))).toBe(false);
    expect(ed25519Verify(ed25519Sign(MESSAGE, a.privateKey), MESSAGE, a.publicKey)).toBe(true);
    expect(ed25519Verify(ed25519Sign(MESSAGE, a.privateKey), MESSAGE, b.publicKey)).toBe(false);
  });

  it('attack: the identity key (R = identity, S = 0 verifies every message under OpenSSL alone) is refused everywhere', () => {
    const identity = new Uint8Array(32);
    identity[0] = 1;
    const forged = new Uint8Array(64);
    forged[0] = 1;
    expect(ed25519PointCheck(identity)).toBe('small-order');
    expect(ed25519Verify(forged, MESSAGE, identity)).toBe(false);
    expect(() => parseEd25519PublicKey(identity)).toThrow(AppError);
    // y = p + 1: a second, non-canonical spelling of the identity.
    const nonCanonical = Buffer.from('eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', 'hex');
    expect(ed25519PointCheck(nonCanonical)).toBe('not-a-point');
    expect(ed25519Verify(forged, MESSAGE, nonCanonical)).toBe(false);
  });
});
