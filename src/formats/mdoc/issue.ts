import { createHash, randomBytes, randomInt, type JsonWebKey } from 'node:crypto';
import { invalidInput } from '../../errors';
import { typeNamespaceValues } from './attributes';
import { DataItem, cborEncode, taggedBytes } from './cbor';
import { COSE_ES256, HEADER_ALG, HEADER_X5CHAIN, coseKeyFromJwk, sigStructure } from './cose';
import type { MdocSigner, MdocStatusReference } from './types';

export interface IssueMdocInput {
  docType: string;
  /** namespace -> element identifier -> value; values of configured doctypes are typed per element. */
  namespaces: Record<string, Record<string, unknown>>;
  signer: MdocSigner;
  /** The holder's public key (from the OID4VCI proof): the MSO's deviceKeyInfo.deviceKey. */
  deviceKeyJwk: JsonWebKey;
  validFrom: Date;
  validUntil: Date;
  /** When the MSO was signed; defaults to validFrom, so issuance needs no clock of its own. */
  signed?: Date;
  /**
   * The mdoc's entry in a Token Status List: the MSO carries it as status.status_list {idx, uri}
   * (draft-ietf-oauth-status-list, "Referenced Token" in CBOR), so revocation reaches mdocs too.
   */
  status?: MdocStatusReference;
  /** Salt source (32 bytes per element); injectable for tests, node:crypto otherwise. */
  random?: (length: number) => Uint8Array;
}

const MAX_ELEMENTS = 512;

function wholeSeconds(d: Date, name: string): Date {
  if (!(d instanceof Date) || Number.isNaN(d.getTime())) throw invalidInput(`${name} must be a valid date`);
  // tdate carries whole seconds; truncating here keeps the checks below honest about what is signed.
  return new Date(Math.floor(d.getTime() / 1000) * 1000);
}

/** Fisher-Yates over 0..n-1: digest IDs are unique per namespace and say nothing about element order. */
function shuffledIds(n: number): number[] {
  const ids = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [ids[i], ids[j]] = [ids[j] as number, ids[i] as number];
  }
  return ids;
}

/**
 * Issues an ISO 18013-5 IssuerSigned structure: one IssuerSignedItem per element (random salt and
 * digest ID), an MSO with their SHA-256 valueDigests, the holder's deviceKey and validityInfo, signed
 * as COSE_Sign1 ES256 by `signer` with its certificate chain in the unprotected x5chain header.
 * Returns the IssuerSigned CBOR (OID4VCI sends it base64url-encoded).
 */
export async function issueMdoc(input: IssueMdocInput): Promise<Uint8Array> {
  if (typeof input.docType !== 'string' || input.docType.length === 0) throw invalidInput('docType is required');
  if (input.signer?.alg !== 'ES256') throw invalidInput('the mdoc issuer key must be an ES256 (P-256) signer');
  const x5c = input.signer.x5c ?? [];
  // ISO 18013-5 §9.1.2.4: the document signer certificate travels in x5chain; a verifier has no other way to it.
  if (x5c.length === 0) throw invalidInput('the mdoc issuer key needs its certificate chain (x5c)');
  if (typeof input.deviceKeyJwk !== 'object' || input.deviceKeyJwk === null || 'd' in input.deviceKeyJwk) {
    throw invalidInput('deviceKeyJwk must be the holder\'s public key');
  }
  let deviceKey: Map<number, number | Uint8Array>;
  try {
    deviceKey = coseKeyFromJwk(input.deviceKeyJwk);
  } catch (e) {
    throw invalidInput(e instanceof Error ? e.message : 'device key is not usable');
  }
  const validFrom = wholeSeconds(input.validFrom, 'validFrom');
  const validUntil = wholeSeconds(input.validUntil, 'validUntil');
  const signed = wholeSeconds(input.signed ?? input.validFrom, 'signed');
  if (validUntil.getTime() <= validFrom.getTime()) throw invalidInput('validUntil must be after validFrom');
  if (signed.getTime() > validFrom.getTime()) throw invalidInput('signed must not be after validFrom');

  if (input.status !== undefined) {
    const { uri, idx } = input.status;
    if (typeof uri !== 'string' || !/^https?:\/\//.test(uri) || !Number.isSafeInteger(idx) || idx < 0) {
      throw invalidInput('status must name a status list uri (http or https) and a non-negative integer idx');
    }
  }
  const values = typeNamespaceValues(input.docType, input.namespaces);
  const total = Object.values(values).reduce((n, ns) => n + Object.keys(ns).length, 0);
  if (total > MAX_ELEMENTS) throw invalidInput(`an mdoc carries at most ${MAX_ELEMENTS} data elements`);
  const random = input.random ?? ((n: number) => new Uint8Array(randomBytes(n)));

  const nameSpaces = new Map<string, DataItem[]>();
  const valueDigests = new Map<string, Map<number, Uint8Array>>();
  for (const [namespace, elements] of Object.entries(values)) {
    const entries = Object.entries(elements);
    const ids = shuffledIds(entries.length);
    const items: DataItem[] = [];
    const digests = new Map<number, Uint8Array>();
    entries.forEach(([elementIdentifier, elementValue], i) => {
      const digestID = ids[i] as number;
      const item = new Map<string, unknown>([
        ['digestID', digestID],
        ['random', random(32)],
        ['elementIdentifier', elementIdentifier],
        ['elementValue', elementValue],
      ]);
      const dataItem = DataItem.fromBuffer(cborEncode(item));
      items.push(dataItem);
      digests.set(digestID, new Uint8Array(createHash('sha256').update(taggedBytes(dataItem)).digest()));
    });
    nameSpaces.set(namespace, items);
    valueDigests.set(namespace, digests);
  }

  const mso = new Map<string, unknown>([
    ['version', '1.0'],
    ['digestAlgorithm', 'SHA-256'],
    ['valueDigests', valueDigests],
    ['deviceKeyInfo', new Map([['deviceKey', deviceKey]])],
    ['docType', input.docType],
    [
      'validityInfo',
      new Map([
        ['signed', signed],
        ['validFrom', validFrom],
        ['validUntil', validUntil],
      ]),
    ],
  ]);
  if (input.status) {
    mso.set('status', new Map([['status_list', new Map<string, unknown>([['idx', input.status.idx], ['uri', input.status.uri]])]]));
  }
  // MobileSecurityObjectBytes = #6.24(bstr .cbor MobileSecurityObject) is the COSE payload.
  const payload = taggedBytes(DataItem.fromBuffer(cborEncode(mso)));
  const protectedHeader = cborEncode(new Map([[HEADER_ALG, COSE_ES256]]));
  const certificates = x5c.map((c) => new Uint8Array(Buffer.from(c, 'base64')));
  const unprotectedHeader = new Map<number, unknown>([[HEADER_X5CHAIN, certificates.length === 1 ? certificates[0] : certificates]]);
  const signature = await input.signer.sign(sigStructure(protectedHeader, payload));
  if (!(signature instanceof Uint8Array) || signature.length !== 64) throw new Error('ES256 signer must return a 64-byte r||s signature');

  return cborEncode(
    new Map<string, unknown>([
      ['nameSpaces', nameSpaces],
      ['issuerAuth', [protectedHeader, unprotectedHeader, payload, signature]],
    ]),
  );
}
