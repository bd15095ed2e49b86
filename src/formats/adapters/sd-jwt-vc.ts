import { issueSdJwtVc, presentSdJwtVc, splitSdJwt, verifySdJwtVc, type IssueSdJwtVcInput, type PresentSdJwtVcInput, SD_JWT_VC_TYP } from '../sd-jwt-vc';
import type { JsonObject } from '../../vc/ports';
import type { CredentialFormat, FormatVerification, Oid4vpBinding, Oid4vpPresentationCheck, StatusReference, VerifyContext } from '../format';
import { disclosedPaths } from '../sd-jwt-vc/disclosed-paths';
import { sdJwtVcOid4vci } from '../sd-jwt-vc/oid4vci';

const ID = SD_JWT_VC_TYP;
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
/** Five minutes for a key-binding JWT unless the verifier says otherwise. */
const DEFAULT_MAX_AGE_SECONDS = 300;

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A holder's presentation: the issued SD-JWT VC and what to disclose, for whom. */
export interface SdJwtVcPresentRequest extends PresentSdJwtVcInput {
  readonly credential: string;
}

/**
 * SD-JWT VC (`dc+sd-jwt`) as a format: a thin adapter over src/formats/sd-jwt-vc. Detected by its
 * compact shape (an issuer JWS, `~`, disclosures). A presentation is the same serialization with
 * a key-binding JWT: verified here with the context's challenge (nonce) and domain (aud).
 */
export const sdJwtVc: CredentialFormat<IssueSdJwtVcInput, string, SdJwtVcPresentRequest> = {
  id: ID,
  title: 'SD-JWT VC (dc+sd-jwt)',
  oid4vciFormat: 'dc+sd-jwt',
  oid4vci: sdJwtVcOid4vci,
  detect(input: unknown): boolean {
    if (typeof input !== 'string') return false;
    const split = splitSdJwt(input);
    return split !== null && COMPACT_JWS.test(split.jwt);
  },
  issue: (request) => issueSdJwtVc(request),
  async verify(input: unknown, context: VerifyContext): Promise<FormatVerification> {
    if (typeof input !== 'string') return { verified: false, issuerBound: false, problems: [{ type: 'malformed', title: 'an SD-JWT VC is a compact string' }] };
    // A verifier without trust anchors (the VC-API's DID-only context) cannot vouch for any issuer.
    if (!context.trust) return { verified: false, issuerBound: false, problems: [{ type: 'untrusted_issuer', title: `no issuer trust is configured for ${ID}` }] };
    const now = Math.floor((context.now ?? new Date()).getTime() / 1000);
    const aud = Array.isArray(context.domain) ? context.domain[0] : context.domain;
    const r = await verifySdJwtVc(input, {
      trust: context.trust,
      now,
      ...(context.challenge !== undefined && typeof aud === 'string' ? { keyBinding: { aud, nonce: context.challenge, now, maxAgeSeconds: context.maxAgeSeconds ?? DEFAULT_MAX_AGE_SECONDS } } : {}),
      ...(context.checkTokenStatus ? { checkStatus: context.checkTokenStatus } : {}),
    });
    return {
      verified: r.verified,
      problems: r.problems.map((p) => ({ type: p.code, title: p.message })),
      suite: ID,
      // The trust function bound the signing key to the issuer (x5c SAN or the issuer's DID).
      issuerBound: true,
      // The payload with the presented disclosures resolved (iss, vct, status included).
      credential: r.claims,
    };
  },
  present: ({ credential, ...input }) => presentSdJwtVc(credential, input),
  oid4vp: {
    // vc+sd-jwt is the name before SD-JWT VC draft 06; older wallets still ask for it.
    dcqlFormats: [ID, 'vc+sd-jwt'],
    vpFormatsSupported: { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] },
    async verifyPresentation(entry: unknown, binding: Oid4vpBinding, context: VerifyContext): Promise<Oid4vpPresentationCheck> {
      if (typeof entry !== 'string') return { malformed: `a ${ID} presentation is a string` };
      let disclosed: ReturnType<typeof disclosedPaths>;
      try {
        disclosed = disclosedPaths(entry);
      } catch {
        return { malformed: 'not an SD-JWT presentation' };
      }
      if (!context.trust) return { verified: false, checked: 'signature, key binding, status and validity', problems: [{ code: 'untrusted_issuer', message: `no issuer trust is configured for ${ID}` }], claims: {}, disclosed, dcql: {} };
      const now = Math.floor((context.now ?? new Date()).getTime() / 1000);
      const r = await verifySdJwtVc(entry, {
        trust: context.trust,
        keyBinding: { aud: binding.clientId, nonce: binding.nonce, now, maxAgeSeconds: binding.maxAgeSeconds },
        ...(context.checkTokenStatus ? { checkStatus: context.checkTokenStatus } : {}),
        now,
      });
      return {
        verified: r.verified,
        checked: 'signature, key binding, status and validity',
        problems: r.problems,
        ...(r.vct !== undefined ? { type: r.vct } : {}),
        ...(r.iss !== undefined ? { issuer: r.iss } : {}),
        claims: r.claims,
        disclosed,
        dcql: { credential_format: ID, vct: r.vct ?? '', claims: r.claims, cryptographic_holder_binding: true },
      };
    },
  },
  status: {
    mechanism: 'TokenStatusList',
    referencesOf(credential: JsonObject): StatusReference[] {
      const status = credential['status'];
      const list = isObject(status) ? status['status_list'] : undefined;
      if (!isObject(list) || typeof list['uri'] !== 'string' || typeof list['idx'] !== 'number') return [];
      // One list holds every status of a credential (valid, invalid, suspended): revocation sets it.
      return [{ uri: list['uri'], index: list['idx'], purpose: 'revocation' }];
    },
  },
};
