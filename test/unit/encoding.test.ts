import { AppError } from '../../src/errors';
import {
  addMulticodecPrefix,
  base58btcDecode,
  base58btcEncode,
  base64ToBytes,
  base64UrlToBytes,
  bytesToBase64,
  bytesToBase64Url,
  bytesToHex,
  decodeVarint,
  encodeVarint,
  hexToBytes,
  MULTICODEC,
  multibaseDecode,
  multibaseEncode,
  splitMulticodecPrefix,
} from '../../src/domain/encoding';
import { readSharedText } from '../support/shared';
import { expectAppError } from '../support/app-error';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Rows of a multiformats CSV: trimmed cells, surrounding quotes removed. */
function csvRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.split(',').map((cell) => cell.trim().replace(/^"(.*)"$/s, '$1')));
}

/** The header of a multibase test file carries the input, with `\x00` escapes. */
function unescapeInput(s: string): Uint8Array {
  return utf8(s.replace(/\\x([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))));
}

describe('hex', () => {
  it('round-trips and emits lowercase', () => {
    const bytes = Uint8Array.from([0, 1, 0x7f, 0x80, 0xab, 0xff]);
    expect(bytesToHex(bytes)).toBe('00017f80abff');
    expect(hexToBytes('00017F80ABff')).toEqual(bytes);
    expect(hexToBytes('')).toEqual(new Uint8Array(0));
  });

  it.each(['abc', '0x00', 'zz', '00 11', ' 00', '0g', '\n00'])('rejects %j with INVALID_INPUT naming the field', (bad) => {
    const err = expectAppError(() => hexToBytes(bad, 'publicKeyHex'), 'INVALID_INPUT', /publicKeyHex/);
    expect(err.details?.[0]?.field).toBe('publicKeyHex');
  });

  it('uses "value" as the default field name', () => {
    expectAppError(() => hexToBytes('0'), 'INVALID_INPUT', /^value /);
  });

  it('rejects non-string input', () => {
    expectAppError(() => hexToBytes(42 as unknown as string), 'INVALID_INPUT');
  });
});

describe('base64 (standard, padded)', () => {
  it('round-trips every length 0..20', () => {
    for (let n = 0; n <= 20; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + 11) & 0xff);
      const s = bytesToBase64(bytes);
      expect(s.length % 4).toBe(0);
      expect(base64ToBytes(s)).toEqual(bytes);
    }
  });

  it('decodes RFC 4648 §10 vectors', () => {
    expect(base64ToBytes('Zm9vYmFy')).toEqual(utf8('foobar'));
    expect(base64ToBytes('Zm9vYg==')).toEqual(utf8('foob'));
    expect(base64ToBytes('Zm9vYmE=')).toEqual(utf8('fooba'));
    expect(bytesToBase64(utf8('fo'))).toBe('Zm8=');
  });

  it.each([
    ['missing padding', 'Zm8'],
    ['short padding', 'Zg='],
    ['excess padding', 'Zm8=='],
    ['padding in the middle', 'Zg==Zg=='],
    ['inner whitespace', 'Zm9v YmFy'],
    ['trailing newline', 'Zm9vYmFy\n'],
    ['url-safe alphabet', 'ab-_'],
    ['garbage', '!!!!'],
    ['non-canonical trailing bits', 'QR=='],
  ])('rejects %s', (_, bad) => {
    expectAppError(() => base64ToBytes(bad, 'privateKey'), 'INVALID_INPUT', /privateKey/);
  });

  it('never echoes the input in the error', () => {
    const secretish = 'c2VjcmV0c2VjcmV0c2VjcmV0!';
    const err = expectAppError(() => base64ToBytes(secretish), 'INVALID_INPUT');
    expect(err.message).not.toContain(secretish);
  });
});

describe('base64url (unpadded)', () => {
  it('round-trips every length 0..20 without padding', () => {
    for (let n = 0; n <= 20; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 101 + 250) & 0xff);
      const s = bytesToBase64Url(bytes);
      expect(s).not.toMatch(/[=+/]/);
      expect(base64UrlToBytes(s)).toEqual(bytes);
    }
  });

  it.each([['padded', 'Zm8='], ['standard alphabet', 'ab+/'], ['lone char', 'Zm9vY'], ['space', 'Zm 8'], ['non-canonical', 'QR']])(
    'rejects %s',
    (_, bad) => {
      expectAppError(() => base64UrlToBytes(bad, 'x'), 'INVALID_INPUT', /x must be unpadded base64url/);
    },
  );
});

describe('base58btc', () => {
  it('keeps leading zero bytes as 1s', () => {
    expect(base58btcEncode(Uint8Array.from([0, 0, 1]))).toBe('112');
    expect(base58btcDecode('112')).toEqual(Uint8Array.from([0, 0, 1]));
  });

  it.each(['0', 'O', 'I', 'l', 'ab c', '+'])('rejects %j', (bad) => {
    expectAppError(() => base58btcDecode(bad, 'fingerprint'), 'INVALID_INPUT', /fingerprint/);
  });
});

describe('multibase (multiformats/multibase vectors)', () => {
  const files = ['basic.csv', 'leading_zero.csv', 'two_leading_zeros.csv', 'case_insensitivity.csv'];
  const cases: [string, string, Uint8Array, string][] = [];
  for (const file of files) {
    const [header, ...rows] = csvRows(readSharedText('vectors', 'multiformats', 'multibase-tests', file));
    const input = unescapeInput(header?.[1] ?? '');
    for (const [encoding, encoded] of rows) {
      if ((encoding === 'base58btc' || encoding === 'base64url') && encoded !== undefined) {
        cases.push([file, encoding, input, encoded]);
      }
    }
  }

  it('found base58btc and base64url vectors in every file that has them', () => {
    expect(cases.filter((c) => c[1] === 'base58btc')).toHaveLength(3);
    expect(cases.filter((c) => c[1] === 'base64url')).toHaveLength(3);
  });

  it.each(cases)('%s %s encodes and decodes', (_, encoding, input, encoded) => {
    const prefix = encoding === 'base58btc' ? 'z' : 'u';
    expect(multibaseEncode(input, prefix)).toBe(encoded);
    expect(multibaseDecode(encoded)).toEqual(input);
  });

  it('uses the prefixes of the multibase table', () => {
    const rows = csvRows(readSharedText('vectors', 'multiformats', 'multibase.csv'));
    const byName = new Map(rows.map((r) => [r[2], r[1]]));
    expect(byName.get('base58btc')).toBe('z');
    expect(byName.get('base64url')).toBe('u');
    expect(multibaseEncode(Uint8Array.from([1]), 'z')[0]).toBe('z');
    expect(multibaseEncode(Uint8Array.from([1]), 'u')[0]).toBe('u');
  });

  it.each([
    ['unsupported base (base64 "m")', 'meWVzIG1hbmkgIQ'],
    ['unsupported base (base16 "f")', 'f796573206d616e692021'],
    ['empty string', ''],
    ['bad base58 body', 'z0OIl'],
    ['padded base64url body', 'UeWVzIG1hbmkgIQ=='],
    ['padding after u', 'ueWVzIG1hbmkgIQ=='],
  ])('rejects %s', (_, bad) => {
    expectAppError(() => multibaseDecode(bad, 'publicKeyMultibase'), 'INVALID_INPUT', /publicKeyMultibase/);
  });

  it('rejects an unknown prefix when encoding', () => {
    expectAppError(() => multibaseEncode(new Uint8Array(1), 'm' as 'z'), 'INVALID_INPUT');
  });
});

describe('multicodec table and varints', () => {
  const table = new Map(
    csvRows(readSharedText('vectors', 'multiformats', 'multicodec-table.csv'))
      .slice(1)
      .map((r) => [r[0], { tag: r[1], code: Number(r[2]) }]),
  );

  it.each(Object.entries(MULTICODEC))('%s = %d matches table.csv', (name, code) => {
    expect(table.get(name)).toEqual({ tag: 'key', code });
  });

  it('encodes the varint prefixes quoted in the vectors README', () => {
    expect(bytesToHex(encodeVarint(MULTICODEC['ed25519-pub']))).toBe('ed01');
    expect(bytesToHex(encodeVarint(MULTICODEC['secp256k1-pub']))).toBe('e701');
    expect(bytesToHex(encodeVarint(MULTICODEC['x25519-pub']))).toBe('ec01');
    expect(bytesToHex(encodeVarint(MULTICODEC['p256-pub']))).toBe('8024');
    expect(bytesToHex(encodeVarint(MULTICODEC['p384-pub']))).toBe('8124');
    expect(bytesToHex(encodeVarint(0x1300))).toBe('8026');
  });

  it.each([0, 1, 127, 128, 255, 300, 16383, 16384, 2 ** 31, 2 ** 32 + 5, Number.MAX_SAFE_INTEGER])(
    'round-trips %d',
    (n) => {
      const bytes = encodeVarint(n);
      expect(decodeVarint(bytes)).toEqual({ value: n, length: bytes.length });
    },
  );

  it('follows unsigned-varint spec examples', () => {
    expect(bytesToHex(encodeVarint(1))).toBe('01');
    expect(bytesToHex(encodeVarint(127))).toBe('7f');
    expect(bytesToHex(encodeVarint(128))).toBe('8001');
    expect(bytesToHex(encodeVarint(255))).toBe('ff01');
    expect(bytesToHex(encodeVarint(300))).toBe('ac02');
    expect(bytesToHex(encodeVarint(16384))).toBe('808001');
  });

  it('decodes at an offset', () => {
    expect(decodeVarint(Uint8Array.from([9, 9, 0xac, 0x02, 7]), 2)).toEqual({ value: 300, length: 2 });
  });

  it.each([
    ['truncated', [0x80]],
    ['empty', []],
    ['non-minimal', [0x81, 0x00]],
    ['non-minimal zero', [0x80, 0x00]],
    ['over 9 bytes', [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]],
    ['beyond safe integers', [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]],
  ])('rejects %s varints', (_, bytes) => {
    expectAppError(() => decodeVarint(Uint8Array.from(bytes)), 'INVALID_INPUT', /varint/);
  });

  it.each([-1, 1.5, Number.NaN, 2 ** 53])('refuses to encode %d', (n) => {
    expectAppError(() => encodeVarint(n), 'INVALID_INPUT');
  });

  it('adds and splits multicodec prefixes', () => {
    const key = Uint8Array.from({ length: 33 }, (_, i) => i);
    const prefixed = addMulticodecPrefix(MULTICODEC['p256-pub'], key);
    expect(bytesToHex(prefixed.slice(0, 2))).toBe('8024');
    expect(splitMulticodecPrefix(prefixed)).toEqual({ code: 0x1200, data: key });
  });
});
