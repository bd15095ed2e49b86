import { isAppError } from '../../errors';
import type { JsonObject, VcProblem } from '../../vc/ports';
import type { CredentialFormat, FormatStatus, FormatVerification, Oid4vpBinding, Oid4vpPresentationCheck, VerifyContext } from '../format';
import { bytesFrom, decodeCbor } from './cbor';
import { issueMdoc, type IssueMdocInput } from './issue';
import { mdocOid4vci } from './oid4vci';
import { MDOC_LIMITS } from './parse';
import { createDeviceResponse, type CreateDeviceResponseInput } from './present';
import { readIssuerSigned } from './read';
import type { MdocProblem } from './types';
import { verifyDeviceResponse, verifyIssuerSigned } from './verify';

const ID = 'mso_mdoc';

const toJson = (value: unknown): JsonObject => JSON.parse(JSON.stringify(value)) as JsonObject;
const asVcProblem = (p: MdocProblem): VcProblem => ({ type: p.code, title: p.message });

/** mdocs carry Token Status List references in the MSO (status.status_list), surfaced as `status` by read and verify. */
const TOKEN_STATUS: FormatStatus = {
  mechanism: 'TokenStatusList',
  referencesOf(credential: JsonObject) {
    const s = credential['status'] as { uri?: unknown; idx?: unknown } | undefined;
    if (typeof s !== 'object' || s === null || typeof s.uri !== 'string' || typeof s.idx !== 'number') return [];
    return [{ uri: s.uri, index: s.idx, purpose: 'revocation' }];
  },
};

/**
 * An IssuerSigned, by shape alone: bytes (or base64url text, as OID4VCI carries it) of a CBOR map
 * with issuerAuth. Decoding is bounded (MDOC_LIMITS.maxBytes) and any failure is simply "not mine".
 */
function isIssuerSigned(input: unknown): boolean {
  if (!(input instanceof Uint8Array) && (typeof input !== 'string' || !/^[A-Za-z0-9_-]{16,}$/.test(input))) return false;
  try {
    const decoded = decodeCbor(bytesFrom(input, 'issuerSigned', MDOC_LIMITS.maxBytes), 'issuerSigned');
    return decoded instanceof Map && decoded.has('issuerAuth') && !decoded.has('documents');
  } catch {
    return false;
  }
}

/**
 * ISO/IEC 18013-5 mdoc as a registry format (habit 13). Issues IssuerSigned (returned base64url, the
 * OID4VCI credential form); `present` makes the holder's DeviceResponse for an OID4VP request (also
 * base64url, the vp_token form); `verify` checks an IssuerSigned against the context's issuer trust.
 * A DeviceResponse is verified with verifyDeviceResponse, which needs the request's response_uri
 * and encryption key beside its nonce and client_id: more than VerifyContext carries.
 */
export const mdocFormat: CredentialFormat<IssueMdocInput, string, CreateDeviceResponseInput> = {
  id: ID,
  title: 'ISO/IEC 18013-5 mdoc (mso_mdoc)',
  oid4vciFormat: 'mso_mdoc',
  oid4vci: mdocOid4vci,
  detect: isIssuerSigned,
  read(input: unknown): JsonObject | undefined {
    if (!isIssuerSigned(input)) return undefined;
    return toJson(readIssuerSigned(input as Uint8Array | string));
  },
  async issue(request: IssueMdocInput): Promise<string> {
    return Buffer.from(await issueMdoc(request)).toString('base64url');
  },
  async verify(input: unknown, context: VerifyContext): Promise<FormatVerification> {
    if (!isIssuerSigned(input)) return { verified: false, issuerBound: false, problems: [{ type: 'PARSING_ERROR', title: 'not an mdoc IssuerSigned' }] };
    if (!context.trust) return { verified: false, issuerBound: false, problems: [{ type: 'ISSUER_UNTRUSTED', title: 'no issuer trust is configured for mdoc' }] };
    try {
      const r = await verifyIssuerSigned(input as Uint8Array | string, { trust: context.trust, now: context.now ?? new Date() });
      return {
        verified: r.verified,
        problems: r.problems.map(asVcProblem),
        suite: ID,
        // The key that signed the MSO is the one the trusted certificate chain certifies.
        issuerBound: true,
        credential: toJson(r.document),
      };
    } catch (e) {
      if (isAppError(e) && e.code === 'INVALID_INPUT') return { verified: false, issuerBound: false, problems: [{ type: 'PARSING_ERROR', title: e.message }] };
      throw e;
    }
  },
  async present(request: CreateDeviceResponseInput): Promise<string> {
    return Buffer.from(await createDeviceResponse(request)).toString('base64url');
  },
  status: TOKEN_STATUS,
  oid4vp: {
    dcqlFormats: [ID],
    vpFormatsSupported: { issuerauth_alg_values: [-7], deviceauth_alg_values: [-7] },
    async verifyPresentation(entry: unknown, binding: Oid4vpBinding, context: VerifyContext): Promise<Oid4vpPresentationCheck> {
      if (typeof entry !== 'string' || !/^[A-Za-z0-9_-]+$/.test(entry)) return { malformed: `an ${ID} presentation is a base64url DeviceResponse` };
      const checked = 'device signature, issuer chain and validity';
      const trust = context.trust;
      if (!trust) return { verified: false, checked, problems: [{ code: 'ISSUER_UNTRUSTED', message: 'no issuer trust is configured for mdoc' }], claims: {}, disclosed: [], dcql: {} };
      const doctype = binding.meta?.['doctype_value'];
      const r = await verifyDeviceResponse(Buffer.from(entry, 'base64url'), {
        clientId: binding.clientId,
        responseUri: binding.responseUri,
        nonce: binding.nonce,
        jwkThumbprint: binding.jwkThumbprint ?? null,
        trust: (input) => trust({ ...(input.x5c ? { x5c: input.x5c } : {}), ...(input.iss ? { iss: input.iss } : {}), ...(input.kid ? { kid: input.kid } : {}) }),
        now: context.now ?? new Date(),
        ...(typeof doctype === 'string' && doctype !== '' ? { expectedDocType: doctype } : {}),
        ...(context.checkTokenStatus ? { checkStatus: context.checkTokenStatus } : {}),
      });
      const doc = r.documents[0];
      const claims = doc?.claims ?? {};
      // One credential query is answered by one document; more would smuggle in claims nobody asked for.
      const single = r.documents.length === 1 ? [] : [{ code: 'documents', message: `expected one document, got ${r.documents.length}` }];
      return {
        verified: r.verified && single.length === 0,
        checked,
        problems: [...r.problems, ...single],
        ...(doc ? { type: doc.docType } : {}),
        claims,
        disclosed: Object.entries(claims).flatMap(([ns, elements]) => Object.keys(elements).map((el) => [ns, el])),
        dcql: { credential_format: ID, doctype: doc?.docType ?? '', namespaces: claims, cryptographic_holder_binding: true },
      };
    },
  },
};
