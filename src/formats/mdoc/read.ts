import type { JsonWebKey } from 'node:crypto';
import { bytesFrom, decodeCbor } from './cbor';
import { jwkFromCoseKey } from './cose';
import { elementValueToJson, setOwn } from './element-values';
import { MDOC_LIMITS, parseIssuerSigned, readOrRefuse } from './parse';
import type { MdocClaims } from './types';

export interface IssuerSignedSummary {
  docType: string;
  claims: MdocClaims;
  deviceKeyJwk?: JsonWebKey;
  validFrom: string;
  validUntil: string;
  /** base64 DER, leaf first. */
  x5c: string[];
  status?: { uri: string; idx: number };
}

/**
 * What an IssuerSigned says, unverified: for a wallet choosing which elements a request can be
 * answered with, or an issuer showing what it issued. Never a substitute for verifyDeviceResponse.
 */
export function readIssuerSigned(input: Uint8Array | string): IssuerSignedSummary {
  const bytes = bytesFrom(input, 'issuerSigned', MDOC_LIMITS.maxBytes);
  const parsed = readOrRefuse('issuerSigned', () => parseIssuerSigned(decodeCbor(bytes, 'issuerSigned'), 'issuerSigned'));
  const claims: MdocClaims = {};
  for (const [namespace, items] of parsed.nameSpaces) {
    const values: Record<string, unknown> = {};
    for (const item of items) setOwn(values, item.elementIdentifier, elementValueToJson(item.elementValue));
    setOwn(claims, namespace, values);
  }
  const deviceKeyJwk = jwkFromCoseKey(parsed.mso.deviceKey);
  const iso = (d: Date): string => `${d.toISOString().split('.')[0]}Z`;
  return {
    docType: parsed.mso.docType,
    claims,
    ...(deviceKeyJwk ? { deviceKeyJwk } : {}),
    validFrom: iso(parsed.mso.validFrom),
    validUntil: iso(parsed.mso.validUntil),
    x5c: parsed.x5chain.map((c) => Buffer.from(c).toString('base64')),
    ...(parsed.mso.status ? { status: parsed.mso.status } : {}),
  };
}
