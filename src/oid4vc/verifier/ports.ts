import type { JsonWebKey } from 'node:crypto';
import type { Es256Signer } from '../../domain/keys/signer.port';
import type { Oid4vpBinding, Oid4vpPresentationCheck } from '../../formats/format';
/**
 * What the OID4VP verifier needs from the rest of Credgate, as the shared contracts of issue 21
 * define them. The composition root (src/app.ts) wires K's keys and trust functions into these;
 * formats come from the format registry (their `oid4vp` member), so the verifier never imports or
 * names a format and a new one is a registry entry.
 */

/** A P-256 signer whose private key never leaves its owner (src/services/oid4vc-keys.service.ts). */
export type Signer = Es256Signer;

/** Issuer trust: throws an AppError (VERIFICATION_FAILED / INVALID_INPUT) when the issuer is not trusted. */
export type IssuerTrust = (input: { x5c?: string[]; iss?: string; kid?: string }) => Promise<{ publicJwk: JsonWebKey; trustedBy: 'x5c' | 'did' }>;

export interface Problem {
  readonly code: string;
  readonly message: string;
}

/** A format wallets present over OpenID4VP, with the deployment's issuer trust and status readers bound. */
export interface PresentationFormat {
  /** The registry id (src/formats/registry.ts), shown as the presented credential's format. */
  readonly id: string;
  verifyPresentation(entry: unknown, binding: Oid4vpBinding, now: Date): Promise<Oid4vpPresentationCheck>;
}

/**
 * The formats a request may ask for, looked up by a DCQL credential query's `format` (the
 * composition builds them from the format registry); an absent one is refused when a request is created.
 */
export interface PresentationFormats {
  forDcqlFormat(format: string): PresentationFormat | undefined;
  /** client_metadata.vp_formats_supported of a request. */
  vpFormatsSupported(): Record<string, Record<string, unknown>>;
}

/** The verifier's request-signing key of a tenant (key purpose 'oid4vp-request'), with its chain. */
export type RequestSignerOf = (tenantId: string) => Promise<Signer>;
