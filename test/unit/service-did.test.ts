import {
  deriveServiceDidIdentifier,
  formatFamilyADid,
  formatLedgerId,
  isDidSyntax,
  parseServiceDid,
} from '../../src/domain/dids/service-did';
import { AppError } from '../../src/errors';

const ID = 'FgAyRZUjCicQ5t3iCmjDKw';

describe('service-method DIDs', () => {
  test('all three spellings parse to the same stored DID', () => {
    const plain = `did:credgate:local:${ID}`;
    expect(parseServiceDid(plain)).toEqual({ method: 'credgate', network: 'local', identifier: ID, ledgerFileId: undefined, did: plain });
    expect(parseServiceDid(`${plain}:0.0.12`)).toMatchObject({ did: plain, ledgerFileId: '0.0.12' });
    const a = formatFamilyADid('credgate', 'local', ID, '0.0.12');
    expect(a).toBe(`${plain};credgate:local:fid=0.0.12`);
    expect(parseServiceDid(a)).toMatchObject({ did: plain, ledgerFileId: '0.0.12' });
  });

  test('a Family A DID whose halves disagree is invalid', () => {
    expect(() => parseServiceDid(`did:credgate:local:${ID};other:local:fid=0.0.1`)).toThrow(AppError);
  });

  test('other methods are recognised as DIDs but not parsed; garbage is invalid', () => {
    expect(parseServiceDid('did:web:example.com')).toBeUndefined();
    expect(isDidSyntax('did:web:example.com')).toBe(true);
    for (const bad of ['', 'did:', 'did:web', 'did:Web:x', 'hello', `did:credgate:local:${ID};`]) {
      expect(() => parseServiceDid(bad)).toThrow(expect.objectContaining({ code: 'INVALID_DID' }));
    }
  });

  test('identifiers depend on tenant, algorithm and key, and are stable', () => {
    const k = new Uint8Array(33).fill(2);
    const a = deriveServiceDidIdentifier('t1', 'secp256k1', k);
    expect(a).toBe(deriveServiceDidIdentifier('t1', 'secp256k1', k));
    expect(a).not.toBe(deriveServiceDidIdentifier('t2', 'secp256k1', k));
    expect(a).not.toBe(deriveServiceDidIdentifier('t1', 'Ed25519', k));
    expect(a).toMatch(/^[1-9A-HJ-NP-Za-km-z]{20,23}$/);
  });

  test('ledger ids look like ledger entity ids', () => {
    expect(formatLedgerId(7n)).toBe('0.0.7');
  });
});
