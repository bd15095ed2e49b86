import { isAppError } from '../../errors';
import type { JsonObject, VcProblem } from '../../vc/ports';
import type { CredentialFormat, FormatStatus, FormatVerification, VerifyContext } from '../format';
import { bytesFrom, decodeCbor } from './cbor';
import { issueMdoc, type IssueMdocInput } from './issue';
import { MDOC_LIMITS } from './parse';
import { createDeviceResponse, type CreateDeviceResponseInput } from './present';
import { readIssuerSigned } from './read';
import type { MdocProblem } from './types';
import { verifyIssuerSigned } from './verify';

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
};
