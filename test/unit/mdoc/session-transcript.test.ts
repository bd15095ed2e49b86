import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { JsonWebKey } from 'node:crypto';
import { SessionTranscript } from '@owf/mdoc';
import { jwkThumbprint, openId4VpHandoverInfoBytes, openId4VpSessionTranscript } from '../../../src/formats/mdoc';
import { libraryContext } from './support';

interface AnnexBVector {
  clientId: string;
  nonce: string;
  responseUri: string;
  encryptionJwk: JsonWebKey;
  jwkThumbprintHex: string;
  handoverInfoHex: string;
  handoverHex: string;
  sessionTranscriptHex: string;
}

const vector = JSON.parse(readFileSync(path.join(__dirname, '../../fixtures/mdoc/oid4vp-1.0-annex-b.2.6.1.json'), 'utf8')) as AnnexBVector;
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('OpenID4VP 1.0 Annex B.2.6.1 SessionTranscript', () => {
  const input = { clientId: vector.clientId, nonce: vector.nonce, responseUri: vector.responseUri };

  it('takes the RFC 7638 thumbprint of the example encryption key', () => {
    expect(hex(jwkThumbprint(vector.encryptionJwk))).toBe(vector.jwkThumbprintHex);
  });

  it('encodes OpenID4VPHandoverInfo and the SessionTranscript exactly as the specification example', () => {
    const thumbprint = jwkThumbprint(vector.encryptionJwk);
    expect(hex(openId4VpHandoverInfoBytes({ ...input, jwkThumbprint: thumbprint }))).toBe(vector.handoverInfoHex);
    const transcript = hex(openId4VpSessionTranscript({ ...input, jwkThumbprint: thumbprint }));
    expect(transcript).toBe(vector.sessionTranscriptHex);
    expect(transcript.endsWith(vector.handoverHex)).toBe(true);
    // The thumbprint may also be given as base64url text (how JOSE libraries return it).
    expect(hex(openId4VpSessionTranscript({ ...input, jwkThumbprint: Buffer.from(thumbprint).toString('base64url') }))).toBe(vector.sessionTranscriptHex);
  });

  it('puts null in place of the thumbprint for an unencrypted response, and every field changes the transcript', () => {
    const info = hex(openId4VpHandoverInfoBytes(input));
    expect(info).toContain('f6781c'); // null, then the 28-character responseUri
    const base = hex(openId4VpSessionTranscript(input));
    expect(base).not.toBe(vector.sessionTranscriptHex);
    for (const changed of [{ clientId: 'x509_san_dns:example.org' }, { nonce: `${vector.nonce}x` }, { responseUri: 'https://example.com/other' }]) {
      expect(hex(openId4VpSessionTranscript({ ...input, ...changed }))).not.toBe(base);
    }
  });

  it('agrees with @owf/mdoc\'s own SessionTranscript.forOid4Vp', async () => {
    const thumbprint = jwkThumbprint(vector.encryptionJwk);
    const theirs = await SessionTranscript.forOid4Vp({ ...input, jwkThumbprint: thumbprint }, libraryContext());
    expect(hex(theirs.encode())).toBe(vector.sessionTranscriptHex);
  });

  it('refuses a missing field or a thumbprint that is not 32 bytes', () => {
    expect(() => openId4VpSessionTranscript({ ...input, nonce: '' })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => openId4VpSessionTranscript({ ...input, jwkThumbprint: new Uint8Array(16) })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});
