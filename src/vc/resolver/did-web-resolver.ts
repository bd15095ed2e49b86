import { isIP } from 'node:net';
import { AppError } from '../../errors';
import { type FetchPolicy, guardedGetJson } from '../net/guarded-fetch';
import { checkRemoteDocument } from './did-document';
import { resolutionError } from './fetch-errors';
import type { MethodResolver } from './types';

const PREFIX = 'did:web:';
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const HOST_RE = new RegExp(`^(${LABEL}(?:\\.${LABEL})*)(?::([0-9]{1,5}))?$`, 'i');
const SEGMENT_RE = /^[A-Za-z0-9._~!$&'()*+,;=@-]+$/;

/** The media types a did:web document is served with (did:web spec; JSON as commonly deployed). */
export const DID_DOCUMENT_MEDIA_TYPES = ['application/did+json', 'application/did+ld+json', 'application/json', 'application/ld+json'] as const;

function invalid(message: string): AppError {
  return new AppError('INVALID_DID', message, [{ field: 'did', message }]);
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw invalid('did:web contains a malformed percent-encoding');
  }
}

/**
 * did:web → the HTTPS URL of its document (did:web spec §3.2): `did:web:example.com` →
 * https://example.com/.well-known/did.json; `did:web:example.com:user:alice` →
 * https://example.com/user/alice/did.json; a port is percent-encoded (`example.com%3A8443`).
 * The host must be a domain name (the spec forbids IP addresses); path segments may not climb.
 */
export function didWebUrl(did: string): string {
  if (!did.startsWith(PREFIX)) throw invalid('did must start with did:web:');
  const [hostPart = '', ...segments] = did.slice(PREFIX.length).split(':');
  const host = decode(hostPart);
  const m = HOST_RE.exec(host);
  if (!m) throw invalid('did:web must name a domain (with an optional %3A-encoded port)');
  if (isIP(m[1]!) !== 0 || /^[0-9.]+$/.test(m[1]!)) throw invalid('did:web must name a domain, not an IP address');
  if (m[2] !== undefined && (Number(m[2]) < 1 || Number(m[2]) > 65535)) throw invalid('did:web port must be from 1 to 65535');
  const path = segments.map((s) => {
    const seg = decode(s);
    if (seg === '.' || seg === '..' || !SEGMENT_RE.test(seg)) throw invalid('did:web path segments must be plain names');
    return encodeURIComponent(seg);
  });
  return `https://${host.toLowerCase()}/${path.length > 0 ? path.join('/') : '.well-known'}/did.json`;
}

/** did:web over HTTPS under `policy` (timeout, size cap, SSRF guard, extra CAs). */
export function didWebResolver(policy: FetchPolicy): MethodResolver {
  // did:web is HTTPS only, whatever the policy allows for operator-configured endpoints.
  const webPolicy: FetchPolicy = { ...policy, allowHttp: false };
  return {
    method: 'web',
    name: 'web',
    remote: true,
    resolve: async (did) => {
      const url = didWebUrl(did);
      try {
        const { json } = await guardedGetJson(url, webPolicy, {
          accept: 'application/did+json, application/did+ld+json;q=0.9, application/json;q=0.5',
          contentTypes: DID_DOCUMENT_MEDIA_TYPES,
        });
        return checkRemoteDocument(did, json);
      } catch (e) {
        throw resolutionError(did, e);
      }
    },
  };
}
