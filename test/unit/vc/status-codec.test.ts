import { gzipSync } from 'node:zlib';
import { AppError } from '../../../src/errors';
import { buildStatusListCredential, decodeStatusList, encodeStatusList, statusListEntry, statusValue, withStatusBit } from '../../../src/vc/status';
import { expectAppError } from '../../support/app-error';
import { readSharedJson } from '../../support/shared';

const DIR = ['vectors', 'bitstring-status-list'] as const;
type Json = Record<string, unknown>;
const MIN_BYTES = 16 * 1024;

describe('encodedList (Bitstring Status List v1.0 §3.1, §3.2)', () => {
  test("the spec's example list decodes to 131,072 unset entries, and the same bits encode to the same text", () => {
    const example = readSharedJson<Json>(...DIR, 'example03-example-bitstringstatuslistcredential.json');
    const encoded = (example.credentialSubject as Json).encodedList as string;
    const bits = decodeStatusList(encoded);
    expect(bits.length).toBe(MIN_BYTES);
    expect(bits.every((b) => b === 0)).toBe(true);
    expect(statusValue(bits, 94567)).toBe(0);
    expect(encodeStatusList(bits)).toBe(encoded);
    // example05 is the same list as a secured credential's payload.
    expect(((readSharedJson<Json>(...DIR, 'example05-a-status-list-verifiable-credential.json')).credentialSubject as Json).encodedList).toBe(encoded);
  });

  test('bit 0 is the left-most bit: index 0 is 0x80 of byte 0, index 9 is 0x40 of byte 1', () => {
    let bits: Uint8Array = new Uint8Array(MIN_BYTES);
    bits = withStatusBit(bits, 0, true);
    bits = withStatusBit(bits, 9, true);
    bits = withStatusBit(bits, 131_071, true);
    expect(bits[0]).toBe(0x80);
    expect(bits[1]).toBe(0x40);
    expect(bits[MIN_BYTES - 1]).toBe(0x01);
    const round = decodeStatusList(encodeStatusList(bits));
    expect([0, 1, 8, 9, 131_070, 131_071].map((i) => statusValue(round, i))).toEqual([1, 0, 0, 1, 0, 1]);
    expect(encodeStatusList(bits).startsWith('uH4sI')).toBe(true);
    expect(statusValue(round, 131_072)).toBeUndefined();
    expect(statusValue(round, -1)).toBeUndefined();
  });

  test('multi-bit entries (statusSize 2) read left to right', () => {
    const bits = new Uint8Array(MIN_BYTES);
    bits[0] = 0b10_01_11_00;
    expect([0, 1, 2, 3].map((i) => statusValue(bits, i, 2))).toEqual([2, 1, 3, 0]);
  });

  test('an issuer may not publish a list under 16 KB', () => {
    expectAppError(() => encodeStatusList(new Uint8Array(MIN_BYTES - 1)), 'INVALID_INPUT', /16384 bytes/);
  });

  test('a gzip bomb is refused at the decoded-size cap, and malformed text is INVALID_INPUT', () => {
    const bomb = `u${gzipSync(Buffer.alloc(64 * 1024 * 1024)).toString('base64url')}`;
    expect(bomb.length).toBeLessThan(200_000);
    expectAppError(() => decodeStatusList(bomb), 'INVALID_INPUT', /inflates beyond/);
    expectAppError(() => decodeStatusList(`u${gzipSync(Buffer.alloc(2 * MIN_BYTES)).toString('base64url')}`, MIN_BYTES), 'INVALID_INPUT', /inflates beyond/);
    for (const bad of ['', 'H4sIAAAA', 'u!!!', `u${Buffer.from('not gzip').toString('base64url')}`, `z${gzipSync(Buffer.alloc(8)).toString('base64url')}`]) {
      expect(() => decodeStatusList(bad)).toThrow(AppError);
    }
  });
});

describe('list credentials and entries', () => {
  const bits = withStatusBit(new Uint8Array(MIN_BYTES), 94567, true);

  test("VCDM 2.0: the spec example's shape (example03)", () => {
    const example = readSharedJson<Json>(...DIR, 'example03-example-bitstringstatuslistcredential.json');
    const built = buildStatusListCredential({ id: 'https://example.com/credentials/status/3', issuer: 'did:example:12345', statusPurpose: 'revocation', bits: new Uint8Array(MIN_BYTES), version: '2.0', validFrom: '2021-04-05T14:27:40Z' });
    // The example's subject id uses another path than its credential id; ours is `${id}#list`.
    expect({ ...built, credentialSubject: { ...(built.credentialSubject as Json), id: 'https://example.com/status/3#list' } }).toEqual(example);
    expect((built.credentialSubject as Json).id).toBe('https://example.com/credentials/status/3#list');
    expect(buildStatusListCredential({ id: 'https://x.example/l/1', issuer: 'did:example:1', statusPurpose: 'suspension', bits, version: '2.0' })).not.toHaveProperty('validFrom');
  });

  test('VCDM 1.1: credentials v1 + status list context, issuanceDate', () => {
    const built = buildStatusListCredential({ id: 'https://x.example/l/1', issuer: 'did:example:1', statusPurpose: 'suspension', bits, version: '1.1', validFrom: '2024-01-02T03:04:05Z' });
    expect(built).toEqual({
      '@context': ['https://www.w3.org/2018/credentials/v1', 'https://www.w3.org/ns/credentials/status/v1'],
      id: 'https://x.example/l/1',
      type: ['VerifiableCredential', 'BitstringStatusListCredential'],
      issuer: 'did:example:1',
      issuanceDate: '2024-01-02T03:04:05Z',
      credentialSubject: { id: 'https://x.example/l/1#list', type: 'BitstringStatusList', statusPurpose: 'suspension', encodedList: encodeStatusList(bits) },
    });
    const dated = buildStatusListCredential({ id: 'https://x.example/l/1', issuer: 'did:example:1', statusPurpose: 'suspension', bits, version: '1.1' });
    expect(dated.issuanceDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  test('bad input is INVALID_INPUT', () => {
    const ok = { id: 'https://x.example/l/1', issuer: 'did:example:1', statusPurpose: 'revocation', bits, version: '2.0' as const };
    expectAppError(() => buildStatusListCredential({ ...ok, id: 'not a url' }), 'INVALID_INPUT', /id/);
    expectAppError(() => buildStatusListCredential({ ...ok, statusPurpose: 'whatever' }), 'INVALID_INPUT', /statusPurpose/);
    expectAppError(() => buildStatusListCredential({ ...ok, issuer: '' }), 'INVALID_INPUT', /issuer/);
    expectAppError(() => buildStatusListCredential({ ...ok, validFrom: 'yesterday' }), 'INVALID_INPUT', /validFrom/);
    expectAppError(() => buildStatusListCredential({ ...ok, bits: new Uint8Array(10) }), 'INVALID_INPUT', /16384/);
    expectAppError(() => statusListEntry({ listCredentialUrl: 'https://x.example/l/1', index: -1, statusPurpose: 'revocation' }), 'INVALID_INPUT');
    expectAppError(() => statusListEntry({ listCredentialUrl: 'https://x.example/l/1', index: 1, statusPurpose: 'refresh' }), 'INVALID_INPUT');
  });

  test("entries have the spec's shape (example04): id <list>#<index>, index as a string", () => {
    const example = readSharedJson<Json>(...DIR, 'example04-a-revocable-verifiable-credential.json');
    expect(statusListEntry({ listCredentialUrl: 'https://example.com/credentials/status/3', index: 94567, statusPurpose: 'revocation' })).toEqual(example.credentialStatus);
    const both = readSharedJson<Json>(...DIR, 'example01-example-statuslistcredential-using-simple-entries.json');
    expect([statusListEntry({ listCredentialUrl: 'https://example.com/credentials/status/3', index: 94567, statusPurpose: 'revocation' }), statusListEntry({ listCredentialUrl: 'https://example.com/credentials/status/4', index: 23452, statusPurpose: 'suspension' })]).toEqual(both.credentialStatus);
  });
});
