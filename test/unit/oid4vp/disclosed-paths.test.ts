import { createHash } from 'node:crypto';
import { disclosedPaths, splitSdJwt } from '../../../src/formats/sd-jwt-vc/disclosed-paths';
import { pathRequested } from '../../../src/oid4vc/verifier/claim-paths';

const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
const digest = (d: string): string => createHash('sha256').update(d).digest('base64url');

/** An SD-JWT built by hand (RFC 9901 shapes): object properties, a nested object, an array element. */
function sdJwt(): { issued: string; disclosures: Record<string, string> } {
  const given = b64(['s1', 'given_name', 'Erika']);
  const street = b64(['s2', 'street', 'Heidestraße 17']);
  const address = b64(['s3', 'address', { _sd: [digest(street)], locality: 'Köln' }]);
  const de = b64(['s4', 'DE']);
  const payload = { iss: 'https://issuer.example', vct: 'https://issuer.example/pid', _sd_alg: 'sha-256', _sd: [digest(given), digest(address), 'decoy-digest'], nationalities: [{ '...': digest(de) }, 'FR'] };
  return { issued: `${b64({ alg: 'ES256', typ: 'dc+sd-jwt' })}.${b64(payload)}.sig`, disclosures: { given, street, address, de } };
}

describe('disclosed claim paths of an SD-JWT presentation', () => {
  it('finds each disclosure where its digest sits, nested ones and array elements included; always-visible claims are not disclosures', () => {
    const { issued, disclosures: d } = sdJwt();
    expect(disclosedPaths(`${issued}~${d.given}~${d.address}~${d.street}~${d.de}~`)).toEqual([['given_name'], ['address'], ['address', 'street'], ['nationalities', 0]]);
    expect(disclosedPaths(`${issued}~${d.given}~`)).toEqual([['given_name']]);
    expect(disclosedPaths(`${issued}~`)).toEqual([]);
  });

  it('ignores a disclosure no digest references (the format verifier refuses it) and keeps the KB-JWT apart', () => {
    const { issued, disclosures: d } = sdJwt();
    const stray = b64(['s9', 'birthdate', '1964-08-12']);
    expect(disclosedPaths(`${issued}~${stray}~${d.given}~kb.jwt.sig`)).toEqual([['given_name']]);
    expect(splitSdJwt(`${issued}~${d.given}~kb.jwt.sig`)).toEqual({ jwt: issued, disclosures: [d.given], kbJwt: 'kb.jwt.sig' });
  });

  it('throws on what is not an SD-JWT', () => {
    expect(() => disclosedPaths('not-an-sd-jwt')).toThrow();
    expect(() => disclosedPaths(`${sdJwt().issued}~%%%~`)).toThrow();
  });

  it('a disclosed path is requested when it lies on or under a requested path, or leads to one', () => {
    const requested = [['given_name'], ['address', 'street'], ['nationalities', null]];
    expect(pathRequested(['given_name'], requested)).toBe(true);
    expect(pathRequested(['address'], requested)).toBe(true);
    expect(pathRequested(['address', 'street'], requested)).toBe(true);
    expect(pathRequested(['nationalities', 3], requested)).toBe(true);
    expect(pathRequested(['family_name'], requested)).toBe(false);
    expect(pathRequested(['address', 'locality'], requested)).toBe(false);
    expect(pathRequested(['birthdate'], [])).toBe(false);
  });
});
