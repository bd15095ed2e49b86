import { AppError } from '../../src/errors';
import { canonicalBytes } from '../../src/domain/canonical';
import { bytesToHex, hexToBytes } from '../../src/domain/encoding';
import { generateSecp256k1Keypair, secp256k1SignMessage } from '../../src/domain/keys';
import {
  calculateAge,
  createZkpToken,
  evaluateAgeCondition,
  verifyZkpToken,
  zkpTokenTimeProblem,
  type CreateZkpTokenInput,
  type ZkpData,
} from '../../src/domain/zkp-tokens';
import { expectAppError } from '../support/app-error';

const issuerKeys = generateSecp256k1Keypair();
const skHex = bytesToHex(issuerKeys.privateKey);
const pkHex = bytesToHex(issuerKeys.publicKey);
const utc = (iso: string): Date => new Date(iso);
const decodeToken = (token: string): { claims: Record<string, unknown>; sig: string } =>
  JSON.parse(new TextDecoder().decode(hexToBytes(token))) as { claims: Record<string, unknown>; sig: string };

const BASE: CreateZkpTokenInput = {
  credentialId: 'urn:uuid:6f1d2c1e-0000-4000-8000-000000000001',
  issuer: 'did:svcid:testnet:issuer1',
  holder: 'did:svcid:testnet:holder1',
  attribute: 'birthDate',
  condition: { age: 18 },
  birthDate: '2008-11-22',
  now: utc('2026-11-22T09:00:00Z'),
};

describe('calculateAge', () => {
  it.each([
    ['2008-11-22', '2026-11-21T23:59:59Z', 17],
    ['2008-11-22', '2026-11-22T00:00:00Z', 18],
    ['2008-11-22', '2026-12-01T00:00:00Z', 18],
    ['2008-11-22', '2027-11-21T12:00:00Z', 18],
    ['2008-02-29', '2026-02-28T12:00:00Z', 17],
    ['2008-02-29', '2026-03-01T00:00:00Z', 18],
    ['2008-02-29', '2028-02-29T00:00:00Z', 20],
    ['2008-02-29', '2028-02-28T00:00:00Z', 19],
    ['2000-01-01', '2000-01-01T00:00:00Z', 0],
    ['2000-12-31', '2001-12-30T00:00:00Z', 0],
    ['2000-12-31', '2001-12-31T00:00:00Z', 1],
    ['2008-11-22T00:00:00.000Z', '2026-11-22T00:00:00Z', 18],
    ['2008-11-22T23:30:00-05:00', '2026-11-22T00:00:00Z', 18],
  ])('born %s, on %s: %i', (birth, now, age) => {
    expect(calculateAge(birth, utc(now))).toBe(age);
  });

  it('uses the UTC date of now', () => {
    // 23:30 on Nov 21 in New York is already Nov 22 in UTC.
    expect(calculateAge('2008-11-22', utc('2026-11-21T23:30:00-05:00'))).toBe(18);
  });

  it('rejects a future birth date', () => {
    expectAppError(() => calculateAge('2026-11-23', utc('2026-11-22T23:59:59Z')), 'INVALID_INPUT', /future/);
  });

  it.each(['2008-02-30', '22/11/2008', '', '2008-11-22T10:00:00'])('rejects birth date %p', (birth) => {
    expectAppError(() => calculateAge(birth, utc('2026-01-01T00:00:00Z')), 'INVALID_INPUT', /birthDate/);
  });

  it('rejects an invalid now', () => {
    expectAppError(() => calculateAge('2000-01-01', new Date(Number.NaN)), 'INVALID_INPUT', /now/);
  });
});

describe('evaluateAgeCondition', () => {
  it('meets the condition at exactly the threshold age', () => {
    expect(evaluateAgeCondition('2008-11-22', { age: 18 }, utc('2026-11-22T00:00:00Z'))).toEqual({
      condition: { age: 18 },
      conditionMet: true,
      calculatedAge: 18,
    });
    expect(evaluateAgeCondition('2008-11-22', { age: 18 }, utc('2026-11-21T00:00:00Z')).conditionMet).toBe(false);
  });

  it.each([{ age: -1 }, { age: 1.5 }, { age: '18' }, { age: 151 }, {}, { age: 18, extra: 1 }, null])('rejects condition %p', (c) => {
    expectAppError(() => evaluateAgeCondition('2000-01-01', c as { age: number }, utc('2026-01-01T00:00:00Z')), 'INVALID_INPUT');
  });
});

describe('createZkpToken / verifyZkpToken', () => {
  const issued = createZkpToken(BASE, skHex);

  it('round-trips', () => {
    expect(issued.zkpData).toEqual({ condition: { age: 18 }, conditionMet: true, calculatedAge: 18 });
    expect(issued.publicKey).toBe(pkHex);
    expect(issued.zkpToken).toMatch(/^[0-9a-f]+$/);
    const result = verifyZkpToken(issued);
    expect(result.valid).toBe(true);
    expect(result.reason).toBeUndefined();
    expect(result.claims).toEqual({
      v: 2,
      credentialId: BASE.credentialId,
      issuer: BASE.issuer,
      holder: BASE.holder,
      attribute: 'birthDate',
      zkpData: issued.zkpData,
      issuedAt: '2026-11-22T09:00:00.000Z',
      expiresAt: '2026-11-22T10:00:00.000Z',
    });
  });

  it('does not reveal the birth date', () => {
    const text = new TextDecoder().decode(hexToBytes(issued.zkpToken));
    expect(text).not.toContain('2008');
    expect(text).not.toContain('birthDate":"');
  });

  it('binds credential, attribute and time in signed claims', () => {
    const { claims, sig } = decodeToken(issued.zkpToken);
    expect(sig).toMatch(/^[0-9a-f]{128}$/);
    expect(Object.keys(claims).sort()).toEqual(['attribute', 'credentialId', 'expiresAt', 'holder', 'issuedAt', 'issuer', 'v', 'zkpData']);
  });

  it('is deterministic for the same input', () => {
    expect(createZkpToken(BASE, skHex).zkpToken).toBe(issued.zkpToken);
  });

  it('issues a valid token for an unmet condition', () => {
    const young = createZkpToken({ ...BASE, birthDate: '2008-11-23' }, skHex);
    expect(young.zkpData).toEqual({ condition: { age: 18 }, conditionMet: false, calculatedAge: 17 });
    const result = verifyZkpToken(young);
    expect(result.valid).toBe(true);
    expect(result.claims?.zkpData.conditionMet).toBe(false);
  });

  const tamperedData: [string, unknown][] = [
    ['conditionMet flipped', { ...issued.zkpData, conditionMet: false }],
    ['calculatedAge changed', { ...issued.zkpData, calculatedAge: 19 }],
    ['condition age changed', { ...issued.zkpData, condition: { age: 21 } }],
    ['condition as string', { ...issued.zkpData, condition: { age: '18' } }],
    ['extra member', { ...issued.zkpData, birthDate: '2008-11-22' }],
    ['condition extra member', { ...issued.zkpData, condition: { age: 18, max: 99 } }],
    ['missing conditionMet', { condition: { age: 18 }, calculatedAge: 18 }],
    ['missing calculatedAge', { condition: { age: 18 }, conditionMet: true }],
    ['missing condition', { conditionMet: true, calculatedAge: 18 }],
    ['null', null],
    ['string', JSON.stringify(issued.zkpData)],
  ];
  it.each(tamperedData)('rejects zkpData with %s', (_label, zkpData) => {
    expect(verifyZkpToken({ ...issued, zkpData })).toEqual({ valid: false, reason: 'zkpData does not match the signed token' });
  });

  it('accepts zkpData with another member order (JSON equality)', () => {
    const reordered: ZkpData = { calculatedAge: 18, conditionMet: true, condition: { age: 18 } };
    expect(verifyZkpToken({ ...issued, zkpData: reordered }).valid).toBe(true);
  });

  it('rejects a bit flip in every byte of the token', () => {
    // One flip per byte (the bit position rotates) keeps this to a few hundred verifications.
    const bytes = hexToBytes(issued.zkpToken);
    let rejected = 0;
    for (let i = 0; i < bytes.length; i++) {
      const copy = Uint8Array.from(bytes);
      copy[i] = (copy[i] ?? 0) ^ (1 << i % 8);
      if (!verifyZkpToken({ ...issued, zkpToken: bytesToHex(copy) }).valid) rejected++;
    }
    expect(rejected).toBe(bytes.length);
  });

  it('rejects truncated, extended, empty and non-hex tokens as malformed', () => {
    for (const zkpToken of [issued.zkpToken.slice(0, -2), `${issued.zkpToken}20`, '', 'xyz', `0x${issued.zkpToken}`, 42, null]) {
      expect(verifyZkpToken({ ...issued, zkpToken })).toEqual({ valid: false, reason: 'zkpToken is malformed' });
    }
  });

  it('rejects an oversized token without parsing it', () => {
    expect(verifyZkpToken({ ...issued, zkpToken: 'ab'.repeat(9000) }).reason).toBe('zkpToken is malformed');
  });

  it('rejects a re-encoded (non-canonical) envelope', () => {
    const pretty = JSON.stringify(decodeToken(issued.zkpToken), null, 1);
    expect(verifyZkpToken({ ...issued, zkpToken: bytesToHex(new TextEncoder().encode(pretty)) }).valid).toBe(false);
  });

  it('rejects changed claims even when re-encoded canonically', () => {
    const { claims, sig } = decodeToken(issued.zkpToken);
    for (const change of [{ credentialId: 'urn:uuid:other' }, { attribute: 'issueDate' }, { issuedAt: '2030-01-01T00:00:00.000Z' }, { issuer: 'did:x:y' }, { holder: 'did:x:other' }, { expiresAt: '2030-01-01T00:00:00.000Z' }]) {
      const forged = bytesToHex(canonicalBytes({ claims: { ...claims, ...change }, sig }));
      expect(verifyZkpToken({ ...issued, zkpToken: forged })).toEqual({
        valid: false,
        reason: 'zkpToken signature does not verify with this public key',
      });
    }
  });

  it('rejects a wrong public key', () => {
    const other = bytesToHex(generateSecp256k1Keypair().publicKey);
    expect(verifyZkpToken({ ...issued, publicKey: other }).valid).toBe(false);
  });

  it('throws INVALID_PUBLIC_KEY for a malformed key', () => {
    expectAppError(() => verifyZkpToken({ ...issued, publicKey: 'abcd' }), 'INVALID_PUBLIC_KEY');
  });

  it('rejects signed claims that are inconsistent or of another version', () => {
    const sign = (claims: unknown): string => {
      const sig = bytesToHex(secp256k1SignMessage(canonicalBytes(claims), issuerKeys.privateKey));
      return bytesToHex(canonicalBytes({ claims, sig }));
    };
    const { claims } = decodeToken(issued.zkpToken);
    const lying = { ...claims, zkpData: { condition: { age: 18 }, conditionMet: true, calculatedAge: 17 } };
    expect(verifyZkpToken({ zkpToken: sign(lying), zkpData: lying.zkpData, publicKey: pkHex })).toEqual({
      valid: false,
      reason: 'zkpToken claims are not supported',
    });
    // Version 1 (no holder, no expiry) and unknown versions are refused.
    const { holder: _h, expiresAt: _e, ...v1Claims } = claims;
    expect(verifyZkpToken({ zkpToken: sign({ ...v1Claims, v: 1 }), zkpData: issued.zkpData, publicKey: pkHex }).valid).toBe(false);
    expect(verifyZkpToken({ zkpToken: sign({ ...claims, v: 3 }), zkpData: issued.zkpData, publicKey: pkHex }).valid).toBe(false);
    // Times must be exact ISO instants.
    expect(verifyZkpToken({ zkpToken: sign({ ...claims, expiresAt: 'tomorrow' }), zkpData: issued.zkpData, publicKey: pkHex }).valid).toBe(false);
  });

  it('checks issue time, lifetime and expiry', () => {
    const claims = verifyZkpToken(issued).claims!;
    expect(zkpTokenTimeProblem(claims, utc('2026-11-22T09:30:00Z'))).toBeNull();
    expect(zkpTokenTimeProblem(claims, utc('2026-11-22T10:00:00Z'))).toMatch(/expired/);
    expect(zkpTokenTimeProblem(claims, utc('2026-11-22T08:00:00Z'))).toMatch(/future/);
    expect(zkpTokenTimeProblem({ ...claims, expiresAt: '2026-11-23T09:00:00.000Z' }, utc('2026-11-22T09:30:00Z'))).toMatch(/lifetime/);
  });

  it('validates creation input', () => {
    const err = expectAppError(() => createZkpToken({ ...BASE, credentialId: '', issuer: 5 as unknown as string }, skHex), 'INVALID_INPUT');
    expect(err.details?.map((d) => d.field)).toEqual(['credentialId', 'issuer']);
    expectAppError(() => createZkpToken({ ...BASE, birthDate: '2030-01-01' }, skHex), 'INVALID_INPUT', /future/);
    expectAppError(() => createZkpToken(BASE, '00'.repeat(32)), 'INVALID_PRIVATE_KEY');
  });
});
