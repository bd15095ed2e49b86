import type { JsonWebKey } from 'node:crypto';
/**
 * What the OID4VP verifier needs from the rest of Credgate, as the shared contracts of issue 21
 * define them. The composition root (src/app.ts) wires K's keys and trust functions, S's SD-JWT VC
 * and M's mdoc modules into these; the verifier itself never imports a format, so a new format is
 * a new entry of `PresentationFormats`.
 */

/** A P-256 signer whose private key never leaves its owner (src/services/oid4vc-keys.service.ts). */
export interface Signer {
  readonly alg: 'ES256';
  readonly publicJwk: JsonWebKey;
  /** base64 DER, leaf first. */
  readonly x5c?: string[];
  readonly kid?: string;
  /** Raw r||s (IEEE P1363), as JOSE wants it. */
  sign(data: Uint8Array): Promise<Uint8Array>;
}

/** Issuer trust: throws an AppError (VERIFICATION_FAILED / INVALID_INPUT) when the issuer is not trusted. */
export type IssuerTrust = (input: { x5c?: string[]; iss?: string; kid?: string }) => Promise<{ publicJwk: JsonWebKey; trustedBy: 'x5c' | 'did' }>;

export interface Problem {
  readonly code: string;
  readonly message: string;
}

/**
 * Verifies one SD-JWT VC presentation (S's verifySdJwtVc with the deployment's issuer trust and
 * Token Status List reader bound by the composition root).
 */
export type SdJwtVcVerify = (
  compact: string,
  options: { keyBinding: { aud: string; nonce: string; now: Date; maxAgeSeconds: number }; now: Date },
) => Promise<{ verified: boolean; claims: Record<string, unknown>; iss?: string | undefined; vct?: string | undefined; problems: readonly Problem[] }>;

/** Verifies one mdoc DeviceResponse (M's verifyDeviceResponse with the issuer trust bound). */
export type MdocDeviceResponseVerify = (
  bytes: Uint8Array,
  options: { clientId: string; responseUri: string; nonce: string; jwkThumbprint?: Uint8Array; now: Date; expectedDocType?: string },
) => Promise<{ verified: boolean; documents: readonly { docType: string; claims: Record<string, Record<string, unknown>> }[]; problems: readonly Problem[] }>;

/** The formats a request may ask for; an absent one is refused when a request is created. */
export interface PresentationFormats {
  readonly 'dc+sd-jwt'?: SdJwtVcVerify;
  readonly mso_mdoc?: MdocDeviceResponseVerify;
}

/** The verifier's request-signing key of a tenant (key purpose 'oid4vp-request'), with its chain. */
export type RequestSignerOf = (tenantId: string) => Promise<Signer>;
