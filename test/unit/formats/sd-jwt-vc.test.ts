import { createHash } from 'node:crypto';
import { TypeMetadataFormatSchema } from '@sd-jwt/sd-jwt-vc';
import { buildTypeMetadata, issueSdJwtVc, presentSdJwtVc, splitSdJwt, verifySdJwtVc, type JoseSigner, type SdJwtVcVerification } from '../../../src/formats/sd-jwt-vc';
import { decodeJws, signJws } from '../../../src/formats/sd-jwt-vc/jose';
import { AppError } from '../../../src/errors';
import { rejection } from '../../support/app-error';
import { testSigner, trustSigners } from '../../support/es256-test-signer';

const NOW = 1_800_000_000;
const AUD = 'x509_san_dns:verifier.example';
const NONCE = 'n-0S6_WzA2Mj';
const VCT = 'https://issuer.example/oid4vc/t1/vct/pid';

const claims = () => ({
  given_name: 'Erika',
  family_name: 'Mustermann',
  birthdate: '1964-08-12',
  address: { street_address: 'Heidestraße 17', locality: 'Köln', country: 'DE' },
  nationalities: ['DE', 'FR'],
});

const codes = (r: SdJwtVcVerification) => r.problems.map((p) => p.code);
const b64json = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const digestOf = (disclosure: string) => createHash('sha256').update(disclosure).digest('base64url');

describe('SD-JWT VC (dc+sd-jwt)', () => {
  let issuer: JoseSigner;
  let holder: JoseSigner;
  let credential: string;
  const trust = () => trustSigners(issuer);
  const kb = (over: Partial<{ aud: string; nonce: string; now: number; maxAgeSeconds: number }> = {}) => ({ aud: AUD, nonce: NONCE, now: NOW, maxAgeSeconds: 300, ...over });

  beforeAll(async () => {
    issuer = testSigner({ kid: 'did:example:issuer#key-1' });
    holder = testSigner();
    credential = await issueSdJwtVc({
      signer: issuer,
      iss: 'did:example:issuer',
      vct: VCT,
      claims: claims(),
      disclosable: ['given_name', 'family_name', 'birthdate', 'address', 'address.street_address', 'address.locality', 'nationalities'],
      holderJwk: holder.publicJwk,
      status: { uri: 'https://issuer.example/status/1', idx: 42 },
      iat: NOW - 10,
      exp: NOW + 3600,
    });
  });

  it('issues a dc+sd-jwt with the issuer claims in the clear, every subject claim hidden, and decoys', () => {
    const split = splitSdJwt(credential)!;
    expect(split.kbJwt).toBeUndefined();
    const jws = decodeJws(split.jwt)!;
    expect(jws.header).toMatchObject({ typ: 'dc+sd-jwt', alg: 'ES256', kid: 'did:example:issuer#key-1' });
    expect(jws.header['x5c']).toBeUndefined();
    expect(jws.payload).toMatchObject({ iss: 'did:example:issuer', vct: VCT, iat: NOW - 10, exp: NOW + 3600, _sd_alg: 'sha-256' });
    expect(jws.payload['cnf']).toEqual({ jwk: holder.publicJwk });
    expect(jws.payload['status']).toEqual({ status_list: { idx: 42, uri: 'https://issuer.example/status/1' } });
    for (const name of Object.keys(claims())) expect(jws.payload[name]).toBeUndefined();
    // 5 top-level disclosures plus at least one decoy.
    expect((jws.payload['_sd'] as string[]).length).toBeGreaterThan(5);
    expect(split.disclosures).toHaveLength(7);
  });

  it('puts the signer chain in x5c when it has one', async () => {
    const chained = testSigner({ x5c: ['MIIBfake', 'MIIBroot'] });
    const jws = decodeJws(splitSdJwt(await issueSdJwtVc({ signer: chained, iss: 'https://issuer.example', vct: VCT, claims: { a: 1 } }))!.jwt)!;
    expect(jws.header['x5c']).toEqual(['MIIBfake', 'MIIBroot']);
    expect(jws.header['kid']).toBeUndefined();
  });

  it('round trip: present chosen claims with key binding, verify shows exactly those', async () => {
    const presented = await presentSdJwtVc(credential, { disclose: ['given_name', 'address.locality'], holder, aud: AUD, nonce: NONCE, iat: NOW });
    const r = await verifySdJwtVc(presented, { trust: trust(), keyBinding: kb(), now: NOW });
    expect(r.problems).toEqual([]);
    expect(r.verified).toBe(true);
    expect(r.iss).toBe('did:example:issuer');
    expect(r.vct).toBe(VCT);
    expect(r.cnfJwk).toEqual(holder.publicJwk);
    expect(r.claims['given_name']).toBe('Erika');
    expect(r.claims['address']).toEqual({ country: 'DE', locality: 'Köln' });
    expect(r.claims['family_name']).toBeUndefined();
    expect(r.claims['birthdate']).toBeUndefined();
    expect(r.claims['_sd']).toBeUndefined();
    expect(r.claims['_sd_alg']).toBeUndefined();
    expect(r.disclosed).toEqual(expect.arrayContaining([['given_name'], ['address'], ['address', 'locality']]));
    expect(r.disclosed).toHaveLength(3);
  });

  it('verifies the issued credential with every disclosure, without key binding when none is asked', async () => {
    const r = await verifySdJwtVc(credential, { trust: trust(), now: NOW });
    expect(r.verified).toBe(true);
    expect(r.claims).toMatchObject(claims());
  });

  it('takes DCQL-style array paths too, array elements by index', async () => {
    const presented = await presentSdJwtVc(credential, { disclose: [['address', 'street_address'], ['nationalities']], holder, aud: AUD, nonce: NONCE, iat: NOW });
    const r = await verifySdJwtVc(presented, { trust: trust(), keyBinding: kb(), now: NOW });
    expect(r.verified).toBe(true);
    expect(r.claims['address']).toEqual({ country: 'DE', street_address: 'Heidestraße 17' });
    expect(r.claims['nationalities']).toEqual(['DE', 'FR']);
    expect(r.claims['given_name']).toBeUndefined();
    expect((await rejection(presentSdJwtVc(credential, { disclose: [['nationalities', 5]], aud: AUD, nonce: NONCE }))).code).toBe('INVALID_INPUT');
  });

  it('refuses to present a claim the credential does not have', async () => {
    expect((await rejection(presentSdJwtVc(credential, { disclose: ['ssn'], holder, aud: AUD, nonce: NONCE }))).code).toBe('INVALID_INPUT');
  });

  it('refuses reserved claim names and bad holder keys at issuance', async () => {
    expect((await rejection(issueSdJwtVc({ signer: issuer, iss: 'x', vct: VCT, claims: { cnf: { jwk: {} } } }))).code).toBe('INVALID_INPUT');
    expect((await rejection(issueSdJwtVc({ signer: issuer, iss: 'x', vct: VCT, claims: { a: 1 }, disclosable: ['b'] }))).code).toBe('INVALID_INPUT');
    expect((await rejection(issueSdJwtVc({ signer: issuer, iss: 'x', vct: VCT, claims: { a: 1 }, holderJwk: { kty: 'OKP', crv: 'Ed25519', x: 'AA' } }))).code).toBe('INVALID_INPUT');
  });

  it('a changed disclosure is not referenced by the credential', async () => {
    const split = splitSdJwt(credential)!;
    const target = split.disclosures.findIndex((d) => Buffer.from(d, 'base64url').toString().includes('given_name'));
    const [salt] = JSON.parse(Buffer.from(split.disclosures[target]!, 'base64url').toString()) as [string];
    const forged = split.disclosures.map((d, i) => (i === target ? b64json([salt, 'given_name', 'Eve']) : d));
    const r = await verifySdJwtVc(`${split.jwt}~${forged.join('~')}~`, { trust: trust(), now: NOW });
    expect(r.verified).toBe(false);
    expect(codes(r)).toContain('unreferenced_disclosure');
    expect(r.claims['given_name']).toBeUndefined();
  });

  it('a disclosure whose digest was dropped from the signed payload is refused', async () => {
    const split = splitSdJwt(credential)!;
    const jws = decodeJws(split.jwt)!;
    const family = split.disclosures.find((d) => Buffer.from(d, 'base64url').toString().includes('family_name'))!;
    const payload = { ...jws.payload, _sd: (jws.payload['_sd'] as string[]).filter((x) => x !== digestOf(family)) };
    const resigned = await signJws(issuer, jws.header, payload);
    const r = await verifySdJwtVc(`${resigned}~${split.disclosures.join('~')}~`, { trust: trust(), now: NOW });
    expect(codes(r)).toEqual(['unreferenced_disclosure']);
    expect(r.claims['family_name']).toBeUndefined();
  });

  it('a duplicated disclosure is refused', async () => {
    const split = splitSdJwt(credential)!;
    const r = await verifySdJwtVc(`${split.jwt}~${[...split.disclosures, split.disclosures[0]!].join('~')}~`, { trust: trust(), now: NOW });
    expect(codes(r)).toEqual(['duplicate_disclosure']);
  });

  it('a digest listed twice, a disclosed name that collides, and a disclosed cnf are refused', async () => {
    const split = splitSdJwt(credential)!;
    const jws = decodeJws(split.jwt)!;
    const sd = jws.payload['_sd'] as string[];
    const twice = await signJws(issuer, jws.header, { ...jws.payload, _sd: [...sd, sd[0]!] });
    expect(codes(await verifySdJwtVc(`${twice}~${split.disclosures.join('~')}~`, { trust: trust(), now: NOW }))).toContain('duplicate_digest');

    const clash = b64json(['c2FsdHNhbHQ', 'nickname', 'Eve']);
    const cnf = b64json(['c2FsdHNhbHQ', 'cnf', { jwk: holder.publicJwk }]);
    const withBoth = await signJws(issuer, jws.header, { ...jws.payload, _sd: [...sd, digestOf(clash), digestOf(cnf)], nickname: 'Erika', cnf: undefined });
    const r = await verifySdJwtVc(`${withBoth}~${[...split.disclosures, clash, cnf].join('~')}~`, { trust: trust(), now: NOW });
    expect(codes(r)).toEqual(expect.arrayContaining(['duplicate_claim', 'malformed']));
    expect(r.claims['nickname']).toBe('Erika');
    expect(r.claims['cnf']).toBeUndefined();
  });

  it('only sha-256 is accepted as _sd_alg', async () => {
    const split = splitSdJwt(credential)!;
    const jws = decodeJws(split.jwt)!;
    const other = await signJws(issuer, jws.header, { ...jws.payload, _sd_alg: 'sha-512' });
    expect(codes(await verifySdJwtVc(`${other}~${split.disclosures.join('~')}~`, { trust: trust(), now: NOW }))).toContain('unsupported_sd_alg');
  });

  it('a wrong typ is refused', async () => {
    const split = splitSdJwt(credential)!;
    const jws = decodeJws(split.jwt)!;
    const old = await signJws(issuer, { ...jws.header, typ: 'vc+sd-jwt' }, jws.payload);
    expect(codes(await verifySdJwtVc(`${old}~${split.disclosures.join('~')}~`, { trust: trust(), now: NOW }))).toEqual(['wrong_typ']);
  });

  it('an expired or not yet valid credential is refused', async () => {
    expect(codes(await verifySdJwtVc(credential, { trust: trust(), now: NOW + 3600 + 61 }))).toEqual(['expired']);
    expect((await verifySdJwtVc(credential, { trust: trust(), now: NOW + 3600 + 59 })).verified).toBe(true);
    expect(codes(await verifySdJwtVc(credential, { trust: trust(), now: NOW - 200 }))).toEqual(['issued_in_future']);
  });

  it('a tampered signature or an untrusted issuer is refused', async () => {
    const other = testSigner({ kid: 'did:example:issuer#key-1' });
    expect(codes(await verifySdJwtVc(credential, { trust: trustSigners(other), now: NOW }))).toEqual(['bad_signature']);
    expect(codes(await verifySdJwtVc(credential, { trust: trustSigners(testSigner({ kid: 'did:example:other#1' })), now: NOW }))).toEqual(['untrusted_issuer']);
  });

  describe('key binding', () => {
    let presented: string;
    beforeAll(async () => {
      presented = await presentSdJwtVc(credential, { disclose: ['given_name', 'family_name'], holder, aud: AUD, nonce: NONCE, iat: NOW });
    });

    it('is required when asked', async () => {
      const bare = await presentSdJwtVc(credential, { disclose: ['given_name'], aud: AUD, nonce: NONCE });
      expect(codes(await verifySdJwtVc(bare, { trust: trust(), keyBinding: kb(), now: NOW }))).toEqual(['key_binding_missing']);
    });

    it('a wrong audience or nonce is refused', async () => {
      expect(codes(await verifySdJwtVc(presented, { trust: trust(), keyBinding: kb({ aud: 'x509_san_dns:other.example' }), now: NOW }))).toEqual(['key_binding_invalid']);
      expect(codes(await verifySdJwtVc(presented, { trust: trust(), keyBinding: kb({ nonce: 'another' }), now: NOW }))).toEqual(['key_binding_invalid']);
    });

    it('an old or future KB-JWT is refused', async () => {
      expect(codes(await verifySdJwtVc(presented, { trust: trust(), keyBinding: kb({ now: NOW + 300 + 61 }), now: NOW + 300 + 61 }))).toEqual(['key_binding_invalid']);
      expect(codes(await verifySdJwtVc(presented, { trust: trust(), keyBinding: kb({ now: NOW - 61 }), now: NOW - 61 }))).toEqual(['key_binding_invalid']);
    });

    it('a KB-JWT signed by another key is refused', async () => {
      const thief = await presentSdJwtVc(credential, { disclose: ['given_name'], holder: testSigner(), aud: AUD, nonce: NONCE, iat: NOW });
      expect(codes(await verifySdJwtVc(thief, { trust: trust(), keyBinding: kb(), now: NOW }))).toEqual(['key_binding_invalid']);
    });

    it('a wrong sd_hash (a disclosure removed after binding) is refused', async () => {
      const split = splitSdJwt(presented)!;
      const fewer = `${split.jwt}~${split.disclosures.slice(1).join('~')}~${split.kbJwt}`;
      const r = await verifySdJwtVc(fewer, { trust: trust(), keyBinding: kb(), now: NOW });
      expect(codes(r)).toEqual(['key_binding_invalid']);
      expect(r.problems[0]!.message).toMatch(/sd_hash/);
    });

    it('a KB-JWT with another typ is refused', async () => {
      const split = splitSdJwt(presented)!;
      const k = decodeJws(split.kbJwt!)!;
      const retyped = await signJws(holder, { ...k.header, typ: 'JWT' }, k.payload);
      expect(codes(await verifySdJwtVc(`${split.presented}${retyped}`, { trust: trust(), keyBinding: kb(), now: NOW }))).toEqual(['key_binding_invalid']);
    });
  });

  describe('status', () => {
    it('is read through checkStatus; a set bit fails the credential, an unreadable list is a problem too', async () => {
      const seen: unknown[] = [];
      const ok = await verifySdJwtVc(credential, { trust: trust(), now: NOW, checkStatus: async (ref) => (seen.push(ref), 0) });
      expect(ok.verified).toBe(true);
      expect(seen).toEqual([{ uri: 'https://issuer.example/status/1', idx: 42 }]);
      expect(codes(await verifySdJwtVc(credential, { trust: trust(), now: NOW, checkStatus: async () => 1 }))).toEqual(['status_invalid']);
      expect(codes(await verifySdJwtVc(credential, { trust: trust(), now: NOW, checkStatus: async () => { throw new AppError('SERVICE_UNAVAILABLE', 'down'); } }))).toEqual(['status_unavailable']);
    });
  });

  it('input that is not an SD-JWT is INVALID_INPUT', async () => {
    expect((await rejection(verifySdJwtVc('not-a-jwt', { trust: trust(), now: NOW }))).code).toBe('INVALID_INPUT');
    expect((await rejection(verifySdJwtVc('a.b.c~', { trust: trust(), now: NOW }))).code).toBe('INVALID_INPUT');
  });
});

describe('SD-JWT VC type metadata', () => {
  it('is what sd-jwt-js\'s own Type Metadata schema accepts, one claim entry per attribute', () => {
    const doc = buildTypeMetadata(VCT, { name: 'Badge', description: 'An employee badge', attributes: [{ name: 'given_name', description: 'first name', required: true }, { name: 'team' }] });
    expect(TypeMetadataFormatSchema.safeParse(doc).success).toBe(true);
    expect(doc).toMatchObject({ vct: VCT, name: 'Badge', display: [{ locale: 'en', lang: 'en', name: 'Badge', description: 'An employee badge' }] });
    expect(doc.claims).toEqual([
      { path: ['given_name'], display: [{ locale: 'en', lang: 'en', label: 'given_name', description: 'first name' }], sd: 'allowed', mandatory: true },
      { path: ['team'], display: [{ locale: 'en', lang: 'en', label: 'team' }], sd: 'allowed' },
    ]);
    // The schema is strict enough to refuse a document without its vct.
    expect(TypeMetadataFormatSchema.safeParse({ ...doc, vct: undefined }).success).toBe(false);
  });
});
