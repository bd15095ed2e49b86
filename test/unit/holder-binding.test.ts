import { AppError } from '../../src/errors';
import type { Actor } from '../../src/domain/tenancy/actor';
import { canonicalHolderDid, isHolderBound, mayActFor } from '../../src/domain/tenancy/holder-binding';

const ID = 'did:credgate:local:22r5n5mQ5iudEU32dnyypB';
const actor = (holderDid?: string): Actor => ({ tenantId: 't', tenantSlug: 't', apiKeyId: 'k', scopes: ['holder'], ...(holderDid ? { holderDid } : {}) });

describe('holder binding', () => {
  it('canonicalises every spelling of a service DID to the plain form; did:key as written', () => {
    expect(canonicalHolderDid(ID)).toBe(ID);
    expect(canonicalHolderDid(`${ID}:0.0.12`)).toBe(ID);
    expect(canonicalHolderDid(`${ID};credgate:local:fid=0.0.12`)).toBe(ID);
    const k = 'did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme';
    expect(canonicalHolderDid(k)).toBe(k);
  });

  it('refuses text that is not a DID', () => {
    for (const bad of ['', 'not a did', 'did:', `${ID};other:local:fid=0.0.1`]) {
      expect(() => canonicalHolderDid(bad)).toThrow(AppError);
    }
  });

  it('an unbound actor acts for anyone; a bound one only for its DID in any spelling', () => {
    expect(isHolderBound(actor())).toBe(false);
    expect(mayActFor(actor(), 'did:credgate:local:other')).toBe(true);
    const bound = actor(ID);
    expect(isHolderBound(bound)).toBe(true);
    expect(mayActFor(bound, `${ID}:0.0.3`)).toBe(true);
    expect(mayActFor(bound, `${ID};credgate:local:fid=0.0.3`)).toBe(true);
    for (const other of ['did:credgate:local:22r5n5mQ5iudEU32dnyypC', null, undefined, '', 'garbage', `${ID}x`]) {
      expect(mayActFor(bound, other)).toBe(false);
    }
  });
});
