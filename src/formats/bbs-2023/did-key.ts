import { base58 } from '@scure/base';
import { invalidInput } from '../../errors';

/** Multicodec bls12_381-g2-pub (0xeb) as an unsigned varint: did:key and Multikey prefix the key with it. */
const G2_PREFIX = Uint8Array.of(0xeb, 0x01);
/** A compressed BLS12-381 G2 point. */
export const G2_PUBLIC_KEY_LENGTH = 96;

/** `zUC7…`: the base58btc multibase of a BLS12-381 G2 public key, as did:key and Multikey spell it. */
export function g2Multibase(publicKey: Uint8Array): string {
  if (publicKey.length !== G2_PUBLIC_KEY_LENGTH) throw invalidInput(`a BLS12-381 G2 public key is ${G2_PUBLIC_KEY_LENGTH} bytes, not ${publicKey.length}`);
  const bytes = new Uint8Array(G2_PREFIX.length + publicKey.length);
  bytes.set(G2_PREFIX);
  bytes.set(publicKey, G2_PREFIX.length);
  return `z${base58.encode(bytes)}`;
}

/** The did:key of a G2 public key and its one verification method. */
export function g2DidKey(publicKey: Uint8Array): { did: string; verificationMethod: string } {
  const fingerprint = g2Multibase(publicKey);
  return { did: `did:key:${fingerprint}`, verificationMethod: `did:key:${fingerprint}#${fingerprint}` };
}

/**
 * The G2 public key a did:key (or its method URL) names; INVALID_INPUT for any other key type, so a
 * wrong-curve key is refused by name before any BBS arithmetic sees it.
 */
export function g2PublicKeyOf(didOrMethod: string): Uint8Array {
  const fingerprint = didOrMethod.replace(/^did:key:/, '').split('#')[0] ?? '';
  let bytes: Uint8Array;
  try {
    if (!fingerprint.startsWith('z')) throw new Error('not base58btc');
    bytes = base58.decode(fingerprint.slice(1));
  } catch {
    throw invalidInput(`${didOrMethod} is not a did:key`, [{ field: 'verificationMethod', message: 'not a did:key' }]);
  }
  if (bytes[0] !== G2_PREFIX[0] || bytes[1] !== G2_PREFIX[1] || bytes.length !== G2_PREFIX.length + G2_PUBLIC_KEY_LENGTH) {
    throw invalidInput(`${didOrMethod} is not a BLS12-381 G2 key: bbs-2023 signs and verifies with BLS12-381 G2 keys only`, [{ field: 'verificationMethod', message: 'not a BLS12-381 G2 key' }]);
  }
  return bytes.slice(G2_PREFIX.length);
}
