import {
  DataItem,
  MdocShapeError,
  asArray,
  asBytes,
  asDataItem,
  asDate,
  asMap,
  asText,
  asUint,
  dataOf,
  decodeCbor,
} from './cbor';
import { invalidInput } from '../../errors';

/**
 * Readers of the ISO 18013-5 structures this service receives, over the raw decoded CBOR. Every
 * embedded structure keeps its original bytes (DataItem.buffer), so digests and signatures are checked
 * against exactly what the issuer and the device signed.
 */

/** Bounds on what one structure may contain (habit 14: no input costs more than a fixed amount). */
export const MDOC_LIMITS = { maxBytes: 1024 * 1024, maxDocuments: 8, maxElements: 512, maxCertificates: 8 } as const;

export interface ParsedItem {
  /** The IssuerSignedItemBytes as received. */
  dataItem: DataItem;
  digestID: number;
  elementIdentifier: string;
  elementValue: unknown;
}

export interface ParsedMso {
  docType: string;
  digestAlgorithm: string;
  valueDigests: Map<string, Map<number, Uint8Array>>;
  deviceKey: Map<unknown, unknown>;
  signed: Date;
  validFrom: Date;
  validUntil: Date;
  /** undefined: the MSO names no status list; null: it names one in a shape that cannot be read. */
  status: { uri: string; idx: number } | null | undefined;
}

function statusOf(value: unknown): { uri: string; idx: number } | null | undefined {
  if (value === undefined) return undefined;
  const list = value instanceof Map ? value.get('status_list') : undefined;
  if (!(list instanceof Map)) return null;
  const uri = list.get('uri');
  const idx = list.get('idx');
  return typeof uri === 'string' && typeof idx === 'number' && Number.isSafeInteger(idx) && idx >= 0 ? { uri, idx } : null;
}

export interface ParsedSign1 {
  protectedBytes: Uint8Array;
  protectedHeader: Map<unknown, unknown>;
  unprotectedHeader: Map<unknown, unknown>;
  payload: Uint8Array | null;
  signature: Uint8Array;
}

export interface ParsedIssuerSigned {
  nameSpaces: Map<string, ParsedItem[]>;
  issuerAuth: ParsedSign1;
  x5chain: Uint8Array[];
  mso: ParsedMso;
}

export function parseSign1(value: unknown, path: string): ParsedSign1 {
  const parts = asArray(value, path);
  if (parts.length !== 4) throw new MdocShapeError(path, 'a COSE_Sign1 of four parts');
  const protectedBytes = asBytes(parts[0], `${path}.protected`);
  let protectedHeader: Map<unknown, unknown>;
  if (protectedBytes.length === 0) protectedHeader = new Map();
  else {
    try {
      protectedHeader = asMap(decodeCbor(protectedBytes, `${path}.protected`), `${path}.protected`);
    } catch {
      throw new MdocShapeError(`${path}.protected`, 'a serialized header map');
    }
  }
  const payload = parts[2] === null ? null : asBytes(parts[2], `${path}.payload`);
  return { protectedBytes, protectedHeader, unprotectedHeader: asMap(parts[1], `${path}.unprotected`), payload, signature: asBytes(parts[3], `${path}.signature`) };
}

function parseMso(payload: Uint8Array | null, path: string): ParsedMso {
  if (payload === null) throw new MdocShapeError(path, 'an attached MobileSecurityObjectBytes payload');
  let wrapped: unknown;
  try {
    wrapped = decodeCbor(payload, path);
  } catch {
    throw new MdocShapeError(path, 'well-formed MobileSecurityObjectBytes');
  }
  const mso = asMap(dataOf(asDataItem(wrapped, path), path), `${path}.mso`);
  const docType = asText(mso.get('docType'), `${path}.mso.docType`);
  const digestAlgorithm = asText(mso.get('digestAlgorithm'), `${path}.mso.digestAlgorithm`);
  const valueDigests = new Map<string, Map<number, Uint8Array>>();
  for (const [ns, digests] of asMap(mso.get('valueDigests'), `${path}.mso.valueDigests`)) {
    const at = `${path}.mso.valueDigests`;
    const map = new Map<number, Uint8Array>();
    for (const [id, digest] of asMap(digests, `${at}.${String(ns)}`)) map.set(asUint(id, `${at}.digestID`), asBytes(digest, `${at}.digest`));
    valueDigests.set(asText(ns, `${at}.namespace`), map);
  }
  const deviceKeyInfo = asMap(mso.get('deviceKeyInfo'), `${path}.mso.deviceKeyInfo`);
  const validity = asMap(mso.get('validityInfo'), `${path}.mso.validityInfo`);
  return {
    docType,
    digestAlgorithm,
    valueDigests,
    deviceKey: asMap(deviceKeyInfo.get('deviceKey'), `${path}.mso.deviceKeyInfo.deviceKey`),
    signed: asDate(validity.get('signed'), `${path}.mso.validityInfo.signed`),
    validFrom: asDate(validity.get('validFrom'), `${path}.mso.validityInfo.validFrom`),
    validUntil: asDate(validity.get('validUntil'), `${path}.mso.validityInfo.validUntil`),
    status: statusOf(mso.get('status')),
  };
}

export function parseIssuerSigned(value: unknown, path: string): ParsedIssuerSigned {
  const issuerSigned = asMap(value, path);
  const issuerAuth = parseSign1(issuerSigned.get('issuerAuth'), `${path}.issuerAuth`);
  const chain = issuerAuth.unprotectedHeader.get(33) ?? issuerAuth.protectedHeader.get(33);
  const x5chain = chain === undefined ? [] : chain instanceof Uint8Array ? [chain] : asArray(chain, `${path}.issuerAuth.x5chain`).map((c, i) => asBytes(c, `${path}.issuerAuth.x5chain[${i}]`));
  if (x5chain.length > MDOC_LIMITS.maxCertificates) throw new MdocShapeError(`${path}.issuerAuth.x5chain`, `at most ${MDOC_LIMITS.maxCertificates} certificates`);
  const mso = parseMso(issuerAuth.payload, `${path}.issuerAuth.payload`);
  const nameSpaces = new Map<string, ParsedItem[]>();
  const raw = issuerSigned.get('nameSpaces');
  let count = 0;
  if (raw !== undefined) {
    for (const [ns, items] of asMap(raw, `${path}.nameSpaces`)) {
      const namespace = asText(ns, `${path}.nameSpaces.namespace`);
      const parsed = asArray(items, `${path}.nameSpaces.${namespace}`).map((it, i) => {
        const at = `${path}.nameSpaces.${namespace}[${i}]`;
        const dataItem = asDataItem(it, at);
        const item = asMap(dataOf(dataItem, at), at);
        return {
          dataItem,
          digestID: asUint(item.get('digestID'), `${at}.digestID`),
          elementIdentifier: asText(item.get('elementIdentifier'), `${at}.elementIdentifier`),
          elementValue: item.get('elementValue'),
        };
      });
      count += parsed.length;
      if (count > MDOC_LIMITS.maxElements) throw new MdocShapeError(`${path}.nameSpaces`, `at most ${MDOC_LIMITS.maxElements} elements`);
      nameSpaces.set(namespace, parsed);
    }
  }
  return { nameSpaces, issuerAuth, x5chain, mso };
}

/** Runs a reader and turns its shape errors into one clear INVALID_INPUT. */
export function readOrRefuse<T>(what: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof MdocShapeError) throw invalidInput(`${what} is malformed: ${e.message}`);
    throw e;
  }
}
