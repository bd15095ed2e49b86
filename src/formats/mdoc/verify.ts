import { X509Certificate, createHash, timingSafeEqual, type JsonWebKey } from 'node:crypto';
import { invalidInput, isAppError } from '../../errors';
import { currentBudget } from '../../vc/net/request-budget';
import { DataItem, MdocShapeError, asArray, asDataItem, asMap, asText, asUint, bytesFrom, cborEncode, decodeCbor, taggedBytes } from './cbor';
import { ecdsaAlgorithm, jwkFromCoseKey, sigStructure, verifyEcdsa } from './cose';
import { elementValueToJson, setOwn } from './element-values';
import { MDOC_LIMITS, parseIssuerSigned, parseSign1, readOrRefuse, type ParsedIssuerSigned } from './parse';
import { openId4VpSessionTranscriptValue, type OpenId4VpHandoverInput } from './session-transcript';
import type { MdocClaims, MdocIssuerTrust, MdocProblem, MdocProblemCode, MdocStatusReference, MdocVerifiedDocument, VerifyDeviceResponseResult } from './types';

/** What verifying a presentation needs: the issuer-side options plus the request the device signed over. */
export type VerifyDeviceResponseOptions = OpenId4VpHandoverInput & VerifyIssuerSignedOptions;

interface ParsedDocument {
  docType: string;
  issuerSigned: ParsedIssuerSigned;
  deviceNameSpaces: DataItem;
  deviceAuth: Map<unknown, unknown>;
}

// A Map, not an object literal: the algorithm name comes from the MSO, and 'constructor' must not find anything.
const DIGESTS: ReadonlyMap<string, 'sha256' | 'sha384' | 'sha512'> = new Map([
  ['SHA-256', 'sha256'],
  ['SHA-384', 'sha384'],
  ['SHA-512', 'sha512'],
]);

function parseDeviceResponse(raw: unknown): { status: number; documents: ParsedDocument[] } {
  const response = asMap(raw, 'DeviceResponse');
  asText(response.get('version'), 'DeviceResponse.version');
  const status = asUint(response.get('status'), 'DeviceResponse.status');
  const docs = response.get('documents') === undefined ? [] : asArray(response.get('documents'), 'DeviceResponse.documents');
  if (docs.length > MDOC_LIMITS.maxDocuments) throw new MdocShapeError('DeviceResponse.documents', `at most ${MDOC_LIMITS.maxDocuments} documents`);
  const documents = docs.map((d, i) => {
    const at = `DeviceResponse.documents[${i}]`;
    const doc = asMap(d, at);
    const deviceSigned = asMap(doc.get('deviceSigned'), `${at}.deviceSigned`);
    return {
      docType: asText(doc.get('docType'), `${at}.docType`),
      issuerSigned: parseIssuerSigned(doc.get('issuerSigned'), `${at}.issuerSigned`),
      deviceNameSpaces: asDataItem(deviceSigned.get('nameSpaces'), `${at}.deviceSigned.nameSpaces`),
      deviceAuth: asMap(deviceSigned.get('deviceAuth'), `${at}.deviceSigned.deviceAuth`),
    };
  });
  return { status, documents };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether the MSO was signed while the document signer certificate was valid (ISO 18013-5 §9.3.1). */
function signedWithinCertificate(leaf: Uint8Array, signed: Date): boolean {
  try {
    const cert = new X509Certificate(leaf);
    return Date.parse(cert.validFrom) <= signed.getTime() && signed.getTime() <= Date.parse(cert.validTo);
  } catch {
    return false;
  }
}

/** The countryName (C) of the DS certificate's subject, or of its issuer (the IACA) when the subject has none. */
function certificateCountry(leaf: Uint8Array): string | undefined {
  try {
    const cert = new X509Certificate(leaf);
    const country = (name: string): string | undefined => /^C=(.+)$/m.exec(name)?.[1]?.trim();
    return country(cert.subject) ?? country(cert.issuer);
  } catch {
    return undefined;
  }
}

/** The mDL namespace, whose issuing_country ISO 18013-5 binds to the signer certificate's country. */
const MDL_NAMESPACE = 'org.iso.18013.5.1';

const iso = (d: Date): string => `${d.toISOString().split('.')[0]}Z`;

/** What the verifier needs to judge an IssuerSigned on its own. */
export interface VerifyIssuerSignedOptions {
  /** Resolves the MSO's x5chain to a trusted key, or throws an AppError when it leads to no anchor. */
  trust: MdocIssuerTrust;
  /** The verification time (validity is checked against it, never against the wall clock here). */
  now: Date;
  /** The doctype the request asked for (DCQL meta.doctype_value). */
  expectedDocType?: string;
  /** Tolerance for validFrom/validUntil, in seconds; none unless the caller grants it. */
  skewSeconds?: number;
  /**
   * Reads the status the MSO's status list gives the mdoc (0 valid, 1 revoked, 2 suspended, …);
   * an AppError means the list could not be read. Without it status is not checked.
   */
  checkStatus?: (ref: MdocStatusReference) => Promise<number>;
}

type Report = (code: MdocProblemCode, message: string) => void;

/**
 * The issuer's half (ISO 18013-5 §9.3.1): docType, trust in the chain, the MSO signature, the
 * certificate's validity when it signed, the mdoc's validity at `now`, and each disclosed element's
 * digest. Claims come back only when the issuer is trusted and its signature holds.
 */
async function checkIssuerSigned(
  issuerSigned: ParsedIssuerSigned,
  docType: string,
  options: VerifyIssuerSignedOptions,
  problem: Report,
): Promise<MdocVerifiedDocument> {
  const { mso, issuerAuth, x5chain } = issuerSigned;
  if (options.expectedDocType !== undefined && docType !== options.expectedDocType) {
    problem('DOC_TYPE_MISMATCH', `document is a ${docType}, the request asked for ${options.expectedDocType}`);
  }
  if (mso.docType !== docType) problem('DOC_TYPE_MISMATCH', `the MSO was signed for ${mso.docType}, the document claims ${docType}`);

  // Issuer: the chain must lead to a trust anchor, and the MSO must be signed by the key it certifies.
  let issuerKey: JsonWebKey | undefined;
  let trustedBy: 'x5c' | 'did' | undefined;
  if (x5chain.length === 0) problem('ISSUER_CERTIFICATE_MISSING', 'the MSO carries no x5chain');
  else {
    try {
      const trusted = await options.trust({ x5c: x5chain.map((c) => Buffer.from(c).toString('base64')), now: options.now });
      issuerKey = trusted.publicJwk;
      trustedBy = trusted.trustedBy;
    } catch (e) {
      if (!isAppError(e)) throw e;
      problem('ISSUER_UNTRUSTED', e.message);
    }
  }
  const issuerAlg = ecdsaAlgorithm(issuerAuth.protectedHeader);
  if (issuerAlg === undefined) problem('UNSUPPORTED_ALGORITHM', 'issuerAuth is not signed with ES256, ES384 or ES512');
  let issuerSignatureValid = false;
  if (issuerKey && issuerAlg !== undefined && issuerAuth.payload) {
    issuerSignatureValid = verifyEcdsa(issuerAlg, issuerKey, sigStructure(issuerAuth.protectedBytes, issuerAuth.payload), issuerAuth.signature);
    if (!issuerSignatureValid) problem('ISSUER_SIGNATURE_INVALID', 'the MSO signature does not verify with the issuer certificate key');
  }
  const leaf = x5chain[0];
  if (leaf && !signedWithinCertificate(leaf, mso.signed)) problem('ISSUER_CERTIFICATE_VALIDITY', 'the MSO was signed outside the validity of its certificate');

  const skew = (options.skewSeconds ?? 0) * 1000;
  const now = options.now.getTime();
  if (now + skew < mso.validFrom.getTime()) problem('NOT_YET_VALID', `the mdoc is valid from ${iso(mso.validFrom)}`);
  if (now - skew > mso.validUntil.getTime()) problem('EXPIRED', `the mdoc expired at ${iso(mso.validUntil)}`);

  // Disclosed elements: each IssuerSignedItemBytes must hash to the digest the MSO holds for it.
  const claims: MdocClaims = {};
  const hash = DIGESTS.get(mso.digestAlgorithm);
  if (!hash) problem('DIGEST_ALGORITHM_UNSUPPORTED', `digest algorithm ${mso.digestAlgorithm} is not supported`);
  else {
    for (const [namespace, items] of issuerSigned.nameSpaces) {
      const expected = mso.valueDigests.get(namespace);
      const seen = new Set<string>();
      const values: Record<string, unknown> = {};
      for (const item of items) {
        if (seen.has(item.elementIdentifier)) {
          problem('DUPLICATE_ELEMENT', `${namespace}/${item.elementIdentifier} is disclosed twice`);
          continue;
        }
        seen.add(item.elementIdentifier);
        const digest = expected?.get(item.digestID);
        if (!digest) {
          problem('ELEMENT_DIGEST_MISSING', `the MSO has no digest ${item.digestID} for ${namespace}/${item.elementIdentifier}`);
          continue;
        }
        const actual = new Uint8Array(createHash(hash).update(taggedBytes(item.dataItem)).digest());
        if (!sameBytes(actual, digest)) {
          problem('ELEMENT_DIGEST_MISMATCH', `${namespace}/${item.elementIdentifier} does not match its digest in the MSO`);
          continue;
        }
        setOwn(values, item.elementIdentifier, elementValueToJson(item.elementValue));
      }
      if (Object.keys(values).length > 0) setOwn(claims, namespace, values);
    }
  }
  const issuingCountry = claims[MDL_NAMESPACE]?.['issuing_country'];
  const certCountry = leaf ? certificateCountry(leaf) : undefined;
  if (issuingCountry !== undefined && certCountry !== undefined && issuingCountry !== certCountry) {
    problem('ISSUING_COUNTRY_MISMATCH', `issuing_country ${String(issuingCountry)} is not the signer certificate's country ${certCountry}`);
  }

  const deviceKeyJwk = jwkFromCoseKey(mso.deviceKey);
  if (!deviceKeyJwk) problem('DEVICE_KEY_INVALID', 'the MSO deviceKey is not an EC2 key on P-256, P-384 or P-521');

  if (mso.status === null) problem('STATUS_UNAVAILABLE', 'the MSO status must be status_list with a uri and a non-negative integer idx');
  else if (mso.status && options.checkStatus) {
    try {
      const value = await options.checkStatus(mso.status);
      if (value !== 0) problem('STATUS_INVALID', value === 1 ? 'the mdoc has been revoked' : `the mdoc's status is ${value}`);
    } catch (e) {
      if (!isAppError(e)) throw e;
      problem('STATUS_UNAVAILABLE', e.message);
    }
  }
  const issuerOk = issuerSignatureValid && trustedBy !== undefined;
  return {
    docType,
    // Values are reported only when the issuer is trusted and its signature holds; otherwise they prove nothing.
    claims: issuerOk ? claims : {},
    ...(deviceKeyJwk ? { deviceKeyJwk } : {}),
    validity: { signed: iso(mso.signed), validFrom: iso(mso.validFrom), validUntil: iso(mso.validUntil) },
    ...(trustedBy ? { trustedBy } : {}),
    ...(mso.status ? { status: mso.status } : {}),
  };
}

async function verifyDocument(
  doc: ParsedDocument,
  index: number,
  transcript: ReturnType<typeof openId4VpSessionTranscriptValue>,
  options: VerifyDeviceResponseOptions,
): Promise<{ document: MdocVerifiedDocument; problems: MdocProblem[] }> {
  const problems: MdocProblem[] = [];
  const problem: Report = (code, message) => {
    problems.push({ code, message, document: index });
  };
  const document = await checkIssuerSigned(doc.issuerSigned, doc.docType, options, problem);

  // Holder binding: DeviceAuthentication over this verifier's SessionTranscript, signed by the MSO's deviceKey.
  const deviceKeyJwk = document.deviceKeyJwk;
  if (doc.deviceAuth.has('deviceMac')) problem('DEVICE_MAC_UNSUPPORTED', 'deviceMac needs a reader key, which OpenID4VP has not; use deviceSignature');
  else if (!doc.deviceAuth.has('deviceSignature')) problem('DEVICE_AUTH_MISSING', 'deviceAuth carries no deviceSignature');
  else {
    const signature = parseSign1(doc.deviceAuth.get('deviceSignature'), `documents[${index}].deviceSigned.deviceAuth.deviceSignature`);
    const alg = ecdsaAlgorithm(signature.protectedHeader);
    if (alg === undefined) problem('UNSUPPORTED_ALGORITHM', 'deviceSignature is not signed with ES256, ES384 or ES512');
    else if (signature.payload !== null) problem('DEVICE_SIGNATURE_INVALID', 'deviceSignature must have a detached payload');
    else if (deviceKeyJwk) {
      const deviceAuthentication = cborEncode(['DeviceAuthentication', transcript, doc.docType, doc.deviceNameSpaces]);
      const signed = taggedBytes(DataItem.fromBuffer(deviceAuthentication));
      if (!verifyEcdsa(alg, deviceKeyJwk, sigStructure(signature.protectedBytes, signed), signature.signature)) {
        problem('DEVICE_SIGNATURE_INVALID', 'the device signature does not verify over this request (client_id, nonce, response_uri) with the MSO device key');
      }
    }
  }
  return { document, problems };
}

/**
 * Verifies an IssuerSigned on its own — what a wallet checks on receipt, or a registry verifying an
 * issued mdoc: everything verifyDeviceResponse checks except the device signature, which only a
 * presentation carries.
 */
export async function verifyIssuerSigned(
  input: Uint8Array | string,
  options: VerifyIssuerSignedOptions,
): Promise<{ verified: boolean; document: MdocVerifiedDocument; problems: MdocProblem[] }> {
  if (!(options?.now instanceof Date) || Number.isNaN(options.now.getTime())) throw invalidInput('now must be a valid date');
  if (typeof options.trust !== 'function') throw invalidInput('an issuer trust function is required');
  const bytes = bytesFrom(input, 'issuerSigned', MDOC_LIMITS.maxBytes);
  currentBudget()?.chargeDecoded(bytes.length);
  const parsed = readOrRefuse('issuerSigned', () => parseIssuerSigned(decodeCbor(bytes, 'issuerSigned'), 'issuerSigned'));
  const problems: MdocProblem[] = [];
  const document = await checkIssuerSigned(parsed, parsed.mso.docType, options, (code, message) => problems.push({ code, message }));
  return { verified: problems.length === 0, document, problems };
}

/**
 * Verifies an OID4VP mso_mdoc presentation (a DeviceResponse): per document the issuer's certificate
 * chain (through `trust`), the MSO signature, each disclosed element's digest, validity against `now`,
 * the docType, and the device signature over DeviceAuthentication with the SessionTranscript of
 * OpenID4VP 1.0 Annex B.2.6.1 built from this verifier's clientId, nonce, responseUri and (for
 * encrypted responses) jwkThumbprint. A failed check is an answer (verified: false with problems);
 * only input that is not a DeviceResponse at all is an INVALID_INPUT error.
 */
export async function verifyDeviceResponse(input: Uint8Array | string, options: VerifyDeviceResponseOptions): Promise<VerifyDeviceResponseResult> {
  if (!(options?.now instanceof Date) || Number.isNaN(options.now.getTime())) throw invalidInput('now must be a valid date');
  if (typeof options.trust !== 'function') throw invalidInput('an issuer trust function is required');
  const transcript = openId4VpSessionTranscriptValue(options);
  const bytes = bytesFrom(input, 'DeviceResponse', MDOC_LIMITS.maxBytes);
  // Habit 14: a vp_token's presentations share the request's budget of decoded bytes.
  currentBudget()?.chargeDecoded(bytes.length);
  const parsed = readOrRefuse('DeviceResponse', () => parseDeviceResponse(decodeCbor(bytes, 'DeviceResponse')));

  const problems: MdocProblem[] = [];
  const documents: MdocVerifiedDocument[] = [];
  if (parsed.status !== 0) problems.push({ code: 'RESPONSE_STATUS', message: `DeviceResponse status is ${parsed.status}` });
  if (parsed.documents.length === 0) problems.push({ code: 'NO_DOCUMENTS', message: 'DeviceResponse carries no documents' });
  for (const [i, doc] of parsed.documents.entries()) {
    let result: Awaited<ReturnType<typeof verifyDocument>>;
    try {
      result = await verifyDocument(doc, i, transcript, options);
    } catch (e) {
      if (e instanceof MdocShapeError) throw invalidInput(`DeviceResponse is malformed: ${e.message}`);
      throw e;
    }
    documents.push(result.document);
    problems.push(...result.problems);
  }
  return { verified: problems.length === 0, documents, problems };
}
