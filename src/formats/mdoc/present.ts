import { invalidInput } from '../../errors';
import { DataItem, bytesFrom, cborEncode, decodeCbor, taggedBytes } from './cbor';
import { COSE_ES256, HEADER_ALG, sigStructure } from './cose';
import { MDOC_LIMITS, parseIssuerSigned, readOrRefuse } from './parse';
import { openId4VpSessionTranscriptValue, type OpenId4VpHandoverInput } from './session-transcript';
import type { MdocSigner } from './types';

export interface CreateDeviceResponseInput extends OpenId4VpHandoverInput {
  /** The IssuerSigned the wallet received (bytes or the base64url text OID4VCI delivered). */
  issuerSigned: Uint8Array | string;
  /** The holder key whose public half is the MSO's deviceKey. */
  holder: Pick<MdocSigner, 'sign'>;
  /** What the verifier asked for: namespace -> element identifiers. Elements the mdoc lacks are left out. */
  request: Record<string, readonly string[]>;
  /** Defaults to the MSO's docType. */
  docType?: string;
}

/**
 * The wallet side of OID4VP for mso_mdoc: selects the requested elements (their IssuerSignedItemBytes
 * untouched, so the issuer's digests still hold), and signs DeviceAuthentication — the
 * SessionTranscript of Annex B.2.6.1, the docType and empty DeviceNameSpaces — with the device key.
 * Returns the DeviceResponse CBOR; the vp_token carries it base64url-encoded.
 */
export async function createDeviceResponse(input: CreateDeviceResponseInput): Promise<Uint8Array> {
  const bytes = bytesFrom(input.issuerSigned, 'issuerSigned', MDOC_LIMITS.maxBytes);
  const raw = decodeCbor(bytes, 'issuerSigned');
  const parsed = readOrRefuse('issuerSigned', () => parseIssuerSigned(raw, 'issuerSigned'));
  if (typeof input.request !== 'object' || input.request === null) throw invalidInput('request must map namespaces to element identifiers');
  const docType = input.docType ?? parsed.mso.docType;

  const nameSpaces = new Map<string, DataItem[]>();
  for (const [namespace, wanted] of Object.entries(input.request)) {
    const items = parsed.nameSpaces.get(namespace);
    if (!items || !Array.isArray(wanted)) continue;
    const chosen = items.filter((item) => wanted.includes(item.elementIdentifier)).map((item) => item.dataItem);
    if (chosen.length > 0) nameSpaces.set(namespace, chosen);
  }

  // DeviceNameSpacesBytes: the device asserts nothing of its own here, only authenticates.
  const deviceNameSpaces = DataItem.fromBuffer(cborEncode(new Map()));
  const deviceAuthentication = cborEncode(['DeviceAuthentication', openId4VpSessionTranscriptValue(input), docType, deviceNameSpaces]);
  const deviceAuthenticationBytes = taggedBytes(DataItem.fromBuffer(deviceAuthentication));
  const protectedHeader = cborEncode(new Map([[HEADER_ALG, COSE_ES256]]));
  const signature = await input.holder.sign(sigStructure(protectedHeader, deviceAuthenticationBytes));
  // Detached payload (null): the verifier rebuilds DeviceAuthenticationBytes from its own request.
  const deviceSignature = [protectedHeader, new Map(), null, signature];

  const issuerSigned = asIssuerSignedMap(raw);
  const document = new Map<string, unknown>([
    ['docType', docType],
    [
      'issuerSigned',
      new Map<string, unknown>([
        ['nameSpaces', nameSpaces],
        ['issuerAuth', issuerSigned.get('issuerAuth')],
      ]),
    ],
    [
      'deviceSigned',
      new Map<string, unknown>([
        ['nameSpaces', deviceNameSpaces],
        ['deviceAuth', new Map([['deviceSignature', deviceSignature]])],
      ]),
    ],
  ]);
  return cborEncode(
    new Map<string, unknown>([
      ['version', '1.0'],
      ['documents', [document]],
      ['status', 0],
    ]),
  );
}

function asIssuerSignedMap(raw: unknown): Map<unknown, unknown> {
  if (!(raw instanceof Map)) throw invalidInput('issuerSigned must be a CBOR map');
  return raw;
}
