import { createHash } from 'node:crypto';
import { invalidInput } from '../../errors';
import { cborEncode } from './cbor';

/**
 * The SessionTranscript of an OpenID4VP 1.0 presentation invoked through redirects (Annex B.2.6.1):
 *
 *   SessionTranscript     = [null, null, OpenID4VPHandover]      (DeviceEngagement/EReaderKey null)
 *   OpenID4VPHandover     = ["OpenID4VPHandover", sha-256(OpenID4VPHandoverInfoBytes)]
 *   OpenID4VPHandoverInfo = [clientId, nonce, jwkThumbprint / null, responseUri]
 *
 * clientId includes its prefix (x509_san_dns:…, x509_hash:…); jwkThumbprint is the RFC 7638 SHA-256
 * thumbprint of the verifier's response-encryption key when the response is encrypted
 * (direct_post.jwt) and null otherwise; responseUri is the response_uri (or redirect_uri). The device
 * signs over this, so a response made for another verifier, nonce or endpoint cannot verify here.
 */
export interface OpenId4VpHandoverInput {
  clientId: string;
  nonce: string;
  responseUri: string;
  /** Raw 32-byte thumbprint, or its base64url text. */
  jwkThumbprint?: Uint8Array | string | null;
}

function thumbprintBytes(value: Uint8Array | string | null | undefined): Uint8Array | null {
  if (value === undefined || value === null) return null;
  const bytes = typeof value === 'string' ? new Uint8Array(Buffer.from(value, 'base64url')) : value;
  if (bytes.length !== 32) throw invalidInput('jwkThumbprint must be a 32-byte SHA-256 JWK thumbprint');
  return bytes;
}

function requireText(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length === 0) throw invalidInput(`${name} is required for the mdoc session transcript`);
  return value;
}

/** OpenID4VPHandoverInfo encoded as CBOR (the bytes that are hashed, without a bstr wrapper). */
export function openId4VpHandoverInfoBytes(input: OpenId4VpHandoverInput): Uint8Array {
  return cborEncode([
    requireText(input.clientId, 'clientId'),
    requireText(input.nonce, 'nonce'),
    thumbprintBytes(input.jwkThumbprint),
    requireText(input.responseUri, 'responseUri'),
  ]);
}

/** The SessionTranscript as a CBOR value, to embed in DeviceAuthentication. */
export function openId4VpSessionTranscriptValue(input: OpenId4VpHandoverInput): [null, null, [string, Uint8Array]] {
  const hash = new Uint8Array(createHash('sha256').update(openId4VpHandoverInfoBytes(input)).digest());
  return [null, null, ['OpenID4VPHandover', hash]];
}

/** SessionTranscriptBytes for OpenID4VP over redirects. */
export function openId4VpSessionTranscript(input: OpenId4VpHandoverInput): Uint8Array {
  return cborEncode(openId4VpSessionTranscriptValue(input));
}
