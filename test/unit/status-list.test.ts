import { markSlot, pickFreeSlot } from '../../src/domain/status-list';
import { readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { AppError } from '../../src/errors';
import { bytesToBase64Url } from '../../src/domain/encoding';
import {
  Bitstring,
  MIN_BITSTRING_BITS,
  buildStatusListCredential,
  buildStatusListEntry,
  decodeList,
  encodeList,
  parseStatusListIndex,
  type StatusListEntry,
} from '../../src/domain/status-list';
import { readSharedJson, readSharedText, sharedPath } from '../support/shared';
import { expectAppError } from '../support/app-error';

const DIR = 'vectors/bitstring-status-list';

const vectorFiles = readdirSync(sharedPath(DIR)).sort();

/** The .txt examples are JSON with `//` comment lines (and, in example02, `...` elisions). */
function parseLenient(name: string): unknown {
  if (name.endsWith('.json')) return readSharedJson(DIR, name);
  const text = readSharedText(DIR, name)
    .split('\n')
    .filter((line) => !/^\s*\/\//.test(line))
    .join('\n');
  return JSON.parse(text) as unknown;
}

interface VectorCredential {
  credentialStatus?: unknown;
  id: string;
  issuer: string;
  validFrom: string;
  credentialSubject: { statusPurpose?: string; encodedList?: string; type?: string };
  type: string[];
  '@context': string[];
}

describe('vectors', () => {
  it('holds the seven W3C examples', () => {
    expect(vectorFiles).toHaveLength(7);
  });

  const encodedLists = vectorFiles.flatMap((name) =>
    [...readSharedText(DIR, name).matchAll(/"encodedList"\s*:\s*"([^"]+)"/g)].map((m) => [name, m[1] as string] as const),
  );

  it('contains encoded lists', () => {
    expect(encodedLists.length).toBeGreaterThanOrEqual(2);
  });

  it.each(encodedLists)('%s: encodedList decodes to an all-zero 16 KiB list', (_name, encoded) => {
    const bits = decodeList(encoded);
    expect(bits.length).toBe(MIN_BITSTRING_BITS);
    expect(bits.toBytes().every((b) => b === 0)).toBe(true);
    expect(bits.equals(new Bitstring())).toBe(true);
  });
});

describe('Bitstring', () => {
  it('defaults to 131072 zero bits', () => {
    const bits = new Bitstring();
    expect(bits.length).toBe(131_072);
    expect(bits.toBytes()).toHaveLength(16_384);
    expect(bits.get(0)).toBe(false);
  });

  it.each([0, 7, 8, 12_345, MIN_BITSTRING_BITS - 1])('sets, reads and clears bit %i alone', (i) => {
    const bits = new Bitstring();
    bits.set(i, true);
    expect(bits.get(i)).toBe(true);
    const bytes = bits.toBytes();
    expect(bytes.reduce((n, b) => n + (b === 0 ? 0 : 1), 0)).toBe(1);
    if (i > 0) expect(bits.get(i - 1)).toBe(false);
    if (i < bits.length - 1) expect(bits.get(i + 1)).toBe(false);
    bits.set(i, false);
    expect(bits.get(i)).toBe(false);
    expect(bits.toBytes().every((b) => b === 0)).toBe(true);
  });

  it('puts index 0 in the most significant bit of the first byte (left-most bit)', () => {
    const bits = new Bitstring(16);
    bits.set(0, true);
    expect(Array.from(bits.toBytes())).toEqual([0x80, 0x00]);
    bits.set(7, true);
    expect(Array.from(bits.toBytes())).toEqual([0x81, 0x00]);
    bits.set(8, true);
    bits.set(15, true);
    expect(Array.from(bits.toBytes())).toEqual([0x81, 0x81]);
  });

  it('reads bytes in the same order', () => {
    const bits = Bitstring.fromBytes(Uint8Array.from([0x40, 0x01]));
    expect([...Array(16).keys()].filter((i) => bits.get(i))).toEqual([1, 15]);
  });

  it('setting a bit twice is idempotent', () => {
    const bits = new Bitstring(8);
    bits.set(3, true);
    bits.set(3, true);
    expect(Array.from(bits.toBytes())).toEqual([0x10]);
  });

  it.each([-1, MIN_BITSTRING_BITS, 1.5, Number.NaN])('rejects index %p', (i) => {
    const bits = new Bitstring();
    expectAppError(() => bits.get(i), 'INVALID_INPUT', /index/);
    expectAppError(() => bits.set(i, true), 'INVALID_INPUT', /index/);
  });

  it.each([0, 7, -8, 12.5])('rejects length %p', (n) => {
    expectAppError(() => new Bitstring(n), 'INVALID_INPUT', /multiple of 8/);
  });

  it('rejects an empty byte array', () => {
    expectAppError(() => Bitstring.fromBytes(new Uint8Array(0)), 'INVALID_INPUT');
  });

  it('toBytes returns a copy', () => {
    const bits = new Bitstring(8);
    bits.toBytes()[0] = 0xff;
    expect(bits.get(0)).toBe(false);
  });
});

describe('encodeList / decodeList', () => {
  it('round-trips a list with bits set at the edges', () => {
    const bits = new Bitstring();
    for (const i of [0, 7, 8, 94_567, MIN_BITSTRING_BITS - 1]) bits.set(i, true);
    const encoded = encodeList(bits);
    expect(encoded.startsWith('u')).toBe(true);
    expect(encoded).toMatch(/^u[A-Za-z0-9_-]+$/);
    const decoded = decodeList(encoded);
    expect(decoded.equals(bits)).toBe(true);
    expect(decoded.get(94_567)).toBe(true);
    expect(decoded.get(94_566)).toBe(false);
  });

  it('is deterministic and starts with the gzip magic (uH4sI)', () => {
    const a = encodeList(new Bitstring());
    expect(a).toBe(encodeList(new Bitstring()));
    expect(a.startsWith('uH4sI')).toBe(true);
  });

  it('round-trips a random list', () => {
    const bytes = Uint8Array.from({ length: 2048 }, (_, i) => (i * 131 + 7) & 0xff);
    const bits = Bitstring.fromBytes(bytes);
    expect(Array.from(decodeList(encodeList(bits)).toBytes())).toEqual(Array.from(bytes));
  });

  it.each([
    ['no prefix', 'H4sIAAAAAAAAA-3BMQEAAADCoPVPbQwfoAAAAAAAAAAAAAAAAAAAAIC3AYbSVKsAQAAA'],
    ['base58 prefix', 'zH4sI'],
    ['empty', ''],
    ['padded base64url', 'uH4sIAA=='],
    ['standard alphabet', 'uH4sI+/AAA'],
    ['not gzip', `u${bytesToBase64Url(new TextEncoder().encode('hello world'))}`],
    ['truncated gzip', `u${bytesToBase64Url(gzipSync(new Uint8Array(64)).subarray(0, 15))}`],
    ['empty list', `u${bytesToBase64Url(gzipSync(new Uint8Array(0)))}`],
  ])('rejects %s', (_label, encoded) => {
    expectAppError(() => decodeList(encoded), 'INVALID_INPUT');
  });

  it('rejects a non-string', () => {
    expectAppError(() => decodeList(42 as unknown as string), 'INVALID_INPUT', /prefix u/);
  });

  it('caps the inflated size (gzip bomb)', () => {
    const bomb = `u${bytesToBase64Url(gzipSync(new Uint8Array(1024 * 1024)))}`;
    expect(decodeList(bomb).length).toBe(8 * 1024 * 1024);
    expectAppError(() => decodeList(bomb, 64 * 1024), 'INVALID_INPUT', /inflates beyond/);
  });
});

describe('buildStatusListCredential', () => {
  const example = readSharedJson<VectorCredential>(DIR, 'example03-example-bitstringstatuslistcredential.json');

  it('matches the shape of the spec example', () => {
    const built = buildStatusListCredential({
      id: example.id,
      issuer: example.issuer,
      validFrom: example.validFrom,
      statusPurpose: 'revocation',
      encodedList: example.credentialSubject.encodedList as string,
    });
    // The example's subject id uses a different path (/status/3#list); this service derives it
    // from the credential id, so only that member differs.
    const { credentialSubject: subject, ...rest } = built;
    const { credentialSubject: exampleSubject, ...exampleRest } = example;
    expect(rest).toEqual(exampleRest);
    expect({ ...subject, id: 'x' }).toEqual({ ...exampleSubject, id: 'x' });
    expect(subject.id).toBe(`${example.id}#list`);
  });

  it('accepts suspension and an optional validUntil', () => {
    const built = buildStatusListCredential({
      id: 'https://svc.example/status/9',
      issuer: 'did:key:z6Mk',
      validFrom: '2026-01-01T00:00:00Z',
      validUntil: '2027-01-01T00:00:00Z',
      statusPurpose: 'suspension',
      encodedList: encodeList(new Bitstring()),
    });
    expect(built.credentialSubject.statusPurpose).toBe('suspension');
    expect(built.validUntil).toBe('2027-01-01T00:00:00Z');
    expect(built.type).toEqual(['VerifiableCredential', 'BitstringStatusListCredential']);
  });

  it('reports every bad field', () => {
    const err = expectAppError(
      () =>
        buildStatusListCredential({
          id: '',
          issuer: 'did:example:1',
          validFrom: '2026-01-01T00:00:00Z',
          statusPurpose: 'message' as 'revocation',
          encodedList: 'zabc',
        }),
      'INVALID_INPUT',
    );
    expect(err.details?.map((d) => d.field)).toEqual(['id', 'statusPurpose', 'encodedList']);
  });
});

describe('buildStatusListEntry', () => {
  const parseable = vectorFiles.filter((name) => !name.startsWith('example02'));
  const entries = parseable.flatMap((name) => {
    const doc = parseLenient(name) as VectorCredential;
    const status = doc.credentialStatus;
    if (status === undefined) return [];
    return (Array.isArray(status) ? status : [status]).map((e) => [name, (e as StatusListEntry).id, e as StatusListEntry] as const);
  });

  it('finds the examples entries', () => {
    expect(entries).toHaveLength(7);
  });

  it.each(entries)('%s: rebuilds entry %s exactly', (_name, _id, entry) => {
    const built = buildStatusListEntry({
      listCredentialUrl: entry.statusListCredential,
      index: parseStatusListIndex(entry.statusListIndex),
      purpose: entry.statusPurpose,
    });
    expect(built).toEqual(entry);
    expect(typeof built.statusListIndex).toBe('string');
  });

  it('rejects the message purpose of example02 (multi-bit entries are not issued)', () => {
    const text = readSharedText(DIR, 'example02-example-statuslistcredential-using-more-complex-entries.txt');
    expect(text).toContain('"statusPurpose": "message"');
    expectAppError(
      () => buildStatusListEntry({ listCredentialUrl: 'https://x/8', index: 1, purpose: 'message' as 'revocation' }),
      'INVALID_INPUT',
    );
  });

  it.each([-1, 1.5, Number.MAX_SAFE_INTEGER + 1])('rejects index %p', (index) => {
    expectAppError(() => buildStatusListEntry({ listCredentialUrl: 'https://x/1', index, purpose: 'revocation' }), 'INVALID_INPUT');
  });
});

describe('parseStatusListIndex', () => {
  it.each([
    ['0', 0],
    ['94567', 94_567],
    ['9007199254740991', Number.MAX_SAFE_INTEGER],
  ])('parses %s', (s, n) => {
    expect(parseStatusListIndex(s)).toBe(n);
  });

  it.each(['', '01', '-1', '1.0', ' 1', '1e3', '9007199254740992', 5])('rejects %p', (s) => {
    expectAppError(() => parseStatusListIndex(s), 'INVALID_INPUT');
  });
});

describe('random slot allocation', () => {
  test('finds the only free slot, marks it, and reports a full map as null', () => {
    const map = new Uint8Array(4).fill(0xff);
    map[2] = 0xff & ~(0x80 >>> 5); // slot 21 free
    expect(pickFreeSlot(map)).toBe(21);
    const full = markSlot(map, 21);
    expect(pickFreeSlot(full)).toBeNull();
    expect(map[2]).not.toBe(0xff); // markSlot copies
  });

  test('draws slots spread over the list, never a taken one', () => {
    let map: Uint8Array = new Uint8Array(2048);
    const drawn: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      const s = pickFreeSlot(map)!;
      expect(drawn).not.toContain(s);
      drawn.push(s);
      map = markSlot(map, s);
    }
    expect(Math.max(...drawn)).toBeGreaterThan(8192);
    expect(drawn.slice(1).every((v, i) => v === drawn[i]! + 1)).toBe(false);
  });
});
