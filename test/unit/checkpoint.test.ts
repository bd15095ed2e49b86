import { createHash } from 'node:crypto';
import { AppError } from '../../src/errors';
import {
  type NoteVerifier,
  EMPTY_ROOT,
  formatCheckpoint,
  formatSignerKey,
  formatVerifierKey,
  noteKeyId,
  openCheckpoint,
  parseCheckpoint,
  parseSignerKey,
  parseVerifierKey,
  publicKeyOf,
  signNote,
  verifyNote,
} from '../../src/domain/merkle';
import { expectAppError } from '../support/app-error';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const b64 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'base64'));

/**
 * Known-answer data from the Go reference implementation of signed notes,
 * golang/mod@02c991387e35f9e4c0a9b7ce137717055f8d716d:sumdb/note/note_test.go
 * (TestNewVerifier, TestSign, TestVerifierList, TestOpen).
 */
const GO = {
  peterVkey: 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW',
  peterSkey: 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz',
  enochVkey: 'EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop',
  text: "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n",
  peterSig: '— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n',
  enochSig: '— EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n',
};

/** Example checkpoint body from C2SP tlog-checkpoint.md ("Transparency Log Checkpoints"). */
const C2SP_BODY = 'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n';

const seedA = new Uint8Array(32).fill(0x11);
const seedB = new Uint8Array(32).fill(0x22);
const LOG = 'example.com/credgate-log';
const signerA = { name: LOG, seed: seedA };
const verifierA: NoteVerifier = { name: LOG, publicKey: publicKeyOf(seedA) };

describe('checkpoint body (C2SP tlog-checkpoint)', () => {
  test('parses and re-formats the example from the spec byte for byte', () => {
    const cp = parseCheckpoint(C2SP_BODY);
    expect(cp.origin).toBe('example.com/behind-the-sofa');
    expect(cp.size).toBe(20852163);
    expect(cp.rootHash).toHaveLength(32);
    expect(cp.extensions).toEqual([]);
    expect(formatCheckpoint(cp)).toBe(C2SP_BODY);
  });

  test('formats origin, decimal size and base64 root, one per line', () => {
    expect(formatCheckpoint({ origin: 'o', size: 0, rootHash: EMPTY_ROOT })).toBe(
      'o\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n',
    );
    const withExt = formatCheckpoint({ origin: 'o', size: 2 ** 53 - 1, rootHash: EMPTY_ROOT, extensions: ['x y'] });
    expect(withExt).toBe('o\n9007199254740991\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\nx y\n');
    expect(parseCheckpoint(withExt)).toEqual({ origin: 'o', size: 2 ** 53 - 1, rootHash: EMPTY_ROOT, extensions: ['x y'] });
  });

  test.each([
    ['no trailing newline', 'o\n1\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='],
    ['too few lines', 'o\n1\n'],
    ['empty origin', '\n1\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n'],
    ['leading zero', 'o\n01\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n'],
    ['negative size', 'o\n-1\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n'],
    ['non-decimal size', 'o\n0x10\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n'],
    ['size beyond 2^53-1', 'o\n9007199254740992\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n'],
    ['short root', 'o\n1\nZG9uJ3QgY2FyZSAx\n'],
    ['unpadded root', 'o\n1\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU\n'],
    ['non-canonical base64 root', 'o\n1\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFV=\n'],
    ['empty extension line', 'o\n1\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n\n'],
    ['control character', 'o\t\n1\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n'],
  ])('rejects a body with %s', (_, text) => {
    expectAppError(() => parseCheckpoint(text), 'INVALID_INPUT');
  });

  test('refuses to format values that cannot round-trip', () => {
    expectAppError(() => formatCheckpoint({ origin: '', size: 1, rootHash: EMPTY_ROOT }), 'INVALID_INPUT');
    expectAppError(() => formatCheckpoint({ origin: 'a\nb', size: 1, rootHash: EMPTY_ROOT }), 'INVALID_INPUT');
    expectAppError(() => formatCheckpoint({ origin: 'o', size: 1.5, rootHash: EMPTY_ROOT }), 'INVALID_INPUT');
    expectAppError(() => formatCheckpoint({ origin: 'o', size: 1, rootHash: new Uint8Array(31) }), 'INVALID_INPUT');
    expectAppError(() => formatCheckpoint({ origin: 'o', size: 1, rootHash: EMPTY_ROOT, extensions: [''] }), 'INVALID_INPUT');
  });
});

describe('signed-note keys (Go sumdb/note known answers)', () => {
  test('key ID = SHA-256(name || 0x0A || 0x01 || public key)[:4], as in the spec', () => {
    const peter = parseVerifierKey(GO.peterVkey);
    expect(peter.name).toBe('PeterNeumann');
    expect(hex(peter.keyId)).toBe('c74f20a3');
    expect(hex(noteKeyId(peter.name, peter.publicKey))).toBe('c74f20a3');
    const independent = createHash('sha256')
      .update(Buffer.concat([Buffer.from('PeterNeumann\n\x01', 'latin1'), peter.publicKey]))
      .digest('hex')
      .slice(0, 8);
    expect(independent).toBe('c74f20a3');
    expect(hex(parseVerifierKey(GO.enochVkey).keyId)).toBe('af0cfe78');
  });

  test('the signer key derives the published verifier key', () => {
    const signer = parseSignerKey(GO.peterSkey);
    expect(signer.name).toBe('PeterNeumann');
    expect(formatVerifierKey(signer.name, publicKeyOf(signer.seed))).toBe(GO.peterVkey);
    expect(formatSignerKey(signer)).toBe(GO.peterSkey);
  });

  test('every truncation and single-byte mangling of the verifier key is rejected (TestNewVerifier)', () => {
    const k = GO.peterVkey;
    let rejected = 0;
    for (let i = 0; i <= k.length; i++) {
      for (let j = i + 1; j <= k.length; j++) {
        if (i === 0 && j === k.length) continue;
        expectAppError(() => parseVerifierKey(k.slice(i, j)), 'INVALID_PUBLIC_KEY');
        rejected++;
      }
    }
    for (let i = 0; i < k.length; i++) {
      const mangled = k.slice(0, i) + String.fromCharCode(k.charCodeAt(i) + 1) + k.slice(i + 1);
      expectAppError(() => parseVerifierKey(mangled), 'INVALID_PUBLIC_KEY');
      rejected++;
    }
    expect(rejected).toBe((k.length * (k.length + 1)) / 2 - 1 + k.length);
    // Wrong key length / unknown algorithm, each with a correspondingly adjusted key ID (Go test).
    expectAppError(() => parseVerifierKey('PeterNeumann+cc469956+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TWBADKEY=='), 'INVALID_PUBLIC_KEY');
    expectAppError(() => parseVerifierKey('PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW'), 'INVALID_PUBLIC_KEY');
  });

  test('every truncation and single-byte mangling of the signer key is rejected (TestNewSigner)', () => {
    const k = GO.peterSkey;
    for (let i = 0; i <= k.length; i++) {
      for (let j = i + 1; j <= k.length; j++) {
        if (i === 0 && j === k.length) continue;
        expectAppError(() => parseSignerKey(k.slice(i, j)), 'INVALID_PRIVATE_KEY');
      }
    }
    for (let i = 0; i < k.length; i++) {
      const mangled = k.slice(0, i) + String.fromCharCode(k.charCodeAt(i) + 1) + k.slice(i + 1);
      expectAppError(() => parseSignerKey(mangled), 'INVALID_PRIVATE_KEY');
    }
  });

  test('bad names and key sizes are rejected', () => {
    const pub = publicKeyOf(seedA);
    for (const name of ['', 'a b', 'a+b', 'a\u00a0b', 'a\tb']) {
      expectAppError(() => formatVerifierKey(name, pub), 'INVALID_PUBLIC_KEY');
      expectAppError(() => signNote('x\n', { name, seed: seedA }), 'INVALID_PRIVATE_KEY');
    }
    expectAppError(() => formatVerifierKey('n', pub.slice(1)), 'INVALID_PUBLIC_KEY');
    expectAppError(() => publicKeyOf(new Uint8Array(31)), 'INVALID_PRIVATE_KEY');
  });
});

describe('signed notes', () => {
  const peter = parseVerifierKey(GO.peterVkey);
  const enoch = parseVerifierKey(GO.enochVkey);
  const goNote = `${GO.text}\n${GO.peterSig}`;

  test('signing reproduces the Go reference note byte for byte (TestSign)', () => {
    expect(signNote(GO.text, parseSignerKey(GO.peterSkey))).toBe(goNote);
  });

  test('the Go reference notes verify (TestOpen)', () => {
    expect(verifyNote(goNote, peter)).toEqual({ verified: true, body: GO.text });
    // A signature from an unknown key is ignored; the trusted one suffices.
    const both = `${GO.text}\n${GO.peterSig}${GO.enochSig}`;
    expect(verifyNote(both, peter)).toEqual({ verified: true, body: GO.text });
    expect(verifyNote(both, enoch)).toEqual({ verified: true, body: GO.text });
    // Only foreign signatures: rejected.
    expect(verifyNote(`${GO.text}\n${GO.enochSig}`, peter)).toMatchObject({ verified: false });
  });

  test('an invalid signature from the trusted key rejects the note (TestOpen)', () => {
    const bytes = Buffer.from(GO.peterSig, 'utf8');
    const corrupt = Buffer.concat([bytes.subarray(0, 60), Buffer.from('ABCD'), bytes.subarray(60)]).toString('utf8');
    const res = verifyNote(`${GO.text}\n${corrupt}`, peter);
    expect(res).toEqual({ verified: false, reason: 'invalid signature' });
    expect(res.body).toBeUndefined();
  });

  test.each([
    ['text only', GO.text],
    ['no signature lines', `${GO.text}\n`],
    ['signature without final newline', `${GO.text}\n${GO.peterSig.slice(0, -1)}`],
    ['control character', `\x01${GO.text}\n${GO.peterSig}`],
    ['lone surrogate', `\uD800${GO.text}\n${GO.peterSig}`],
    ['name with a space', `${GO.text}\n— Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`],
    ['trailing non-signature line', `${GO.text}\n${GO.peterSig}Unexpected line.\n`],
    ['more than 100 signatures', `${GO.text}\n${GO.peterSig.repeat(101)}`],
    ['hyphen instead of em dash', `${GO.text}\n-${GO.peterSig.slice(1)}`],
    ['bad base64', `${GO.text}\n— PeterNeumann x08go/ZJkuBS9UG!\n`],
  ])('malformed note (%s) is rejected without throwing', (_, note) => {
    expect(verifyNote(note, peter)).toEqual({ verified: false, reason: 'malformed note' });
  });

  test('100 repeated valid signatures are still accepted', () => {
    expect(verifyNote(`${GO.text}\n${GO.peterSig.repeat(100)}`, peter).verified).toBe(true);
  });

  test('signNote refuses bodies that are not note text', () => {
    expectAppError(() => signNote('abc', signerA), 'INVALID_INPUT');
    expectAppError(() => signNote('a\tb\n', signerA), 'INVALID_INPUT');
    expectAppError(() => signNote('x\n', { name: LOG, seed: new Uint8Array(16) }), 'INVALID_PRIVATE_KEY');
  });
});

describe('signed checkpoints: round trip and tampering', () => {
  const root = new Uint8Array(createHash('sha256').update('some root').digest());
  const body = formatCheckpoint({ origin: LOG, size: 1234, rootHash: root });
  const note = signNote(body, signerA);

  test('sign, verify and parse round-trip', () => {
    expect(note.startsWith(`${body}\n— ${LOG} `)).toBe(true);
    expect(signNote(body, signerA)).toBe(note); // deterministic
    const res = verifyNote(note, verifierA);
    expect(res).toEqual({ verified: true, body });
    const opened = openCheckpoint(note, verifierA, LOG);
    expect(opened.verified).toBe(true);
    expect(opened.checkpoint).toEqual({ origin: LOG, size: 1234, rootHash: root, extensions: [] });
    // The verifier key string round-trips into an equivalent verifier.
    const parsed = parseVerifierKey(formatVerifierKey(LOG, verifierA.publicKey));
    expect(verifyNote(note, parsed).verified).toBe(true);
  });

  test.each([
    ['size', (n: string) => n.replace('\n1234\n', '\n1235\n')],
    ['root', (n: string) => n.replace(Buffer.from(root).toString('base64'), Buffer.from(EMPTY_ROOT).toString('base64'))],
    ['origin', (n: string) => n.replace(`${LOG}\n`, 'example.com/other-log\n')],
    [
      'signature',
      (n: string) => {
        const [text, sig] = n.split(`\n— ${LOG} `) as [string, string];
        const blob = Buffer.from(sig.trim(), 'base64');
        blob[10] = (blob[10] as number) ^ 0x01;
        return `${text}\n— ${LOG} ${blob.toString('base64')}\n`;
      },
    ],
  ])('tampering with the %s fails verification', (_, tamper) => {
    const bad = tamper(note);
    expect(bad).not.toBe(note);
    const res = verifyNote(bad, verifierA);
    expect(res.verified).toBe(false);
    expect(res.body).toBeUndefined();
    expect(openCheckpoint(bad, verifierA).verified).toBe(false);
  });

  test('a note signed by another key does not verify, even under the same name', () => {
    const other = signNote(body, { name: LOG, seed: seedB });
    expect(verifyNote(other, verifierA)).toEqual({ verified: false, reason: 'no signature from the trusted key' });
    // Same key, different name: the key ID differs too, so it is a foreign signature.
    const renamed = signNote(body, { name: 'example.com/alias', seed: seedA });
    expect(verifyNote(renamed, verifierA).verified).toBe(false);
    // The right signature next to a foreign one still verifies (witness cosignatures, key rotation).
    const cosigned = `${note}${other.slice(other.lastIndexOf('— '))}`;
    expect(verifyNote(cosigned, verifierA)).toEqual({ verified: true, body });
  });

  test('openCheckpoint checks the origin and the body format', () => {
    expect(openCheckpoint(note, verifierA, 'example.com/other')).toEqual({ verified: false, reason: 'unexpected origin' });
    const notACheckpoint = signNote('hello\n', signerA);
    expect(openCheckpoint(notACheckpoint, verifierA)).toEqual({ verified: false, reason: 'malformed checkpoint' });
  });

  test('a body with empty lines is separated at the last blank line', () => {
    const text = 'para one\n\npara two\n';
    const signed = signNote(text, signerA);
    expect(verifyNote(signed, verifierA)).toEqual({ verified: true, body: text });
  });
});
