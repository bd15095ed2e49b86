import type { PrismaClient } from '../../db/database';
import { PrismaOid4vpRequestRepository } from '../../db/repositories/oid4vp-request.repository';
import type { Clock, SecretBox } from '../../domain/ports';
import { verifySdJwtVc } from '../../formats/sd-jwt-vc';
import { verifyDeviceResponse } from '../../formats/mdoc';
import { type OwnTokenStatusLists, type StatusListTokenSource, createTokenStatusChecker } from '../../formats/token-status-list';
import type { Logger } from '../../logging/logger';
import { type Der, didTrust, eitherTrust, x5cTrust } from '../../x509';
import type { DidResolver } from '../../vc/ports';
import type { MdocDeviceResponseVerify, PresentationFormats, RequestSignerOf, SdJwtVcVerify } from './ports';
import { Oid4vpVerifierService } from './verifier.service';
import { DEFAULT_WEBHOOK_POLICY, HttpWebhookSender } from './webhook';
import type { VerificationLimits } from '../../vc/net/request-budget';

export { Oid4vpVerifierService } from './verifier.service';
export type { CreatePresentationRequestInput, CreatedPresentationRequest, PresentationRequestView } from './verifier.service';
export type { PresentationResult, PresentedCredential, CredentialCheck } from './request-record';
export { WalletError, isWalletError } from './wallet-error';

export interface VerifierWiring {
  readonly prisma: PrismaClient;
  readonly box: SecretBox;
  readonly clock: Clock;
  readonly publicUrl: string;
  /** Resolves issuer DIDs (did:key, did:web, the service's own). */
  readonly resolver: DidResolver;
  /** Trust anchors for issuer certificate chains (x5c). */
  readonly anchors: () => Promise<readonly Der[]>;
  /** The tenant's request-signing key (x509_san_dns / x509_hash); absent: redirect_uri only. */
  readonly requestSigner?: RequestSignerOf;
  /** The service's own Token Status Lists (read from the database, never a stale token). */
  readonly ownStatus?: OwnTokenStatusLists;
  /** Other issuers' Token Status Lists over HTTPS (guarded, budgeted, cached); absent: status is not checked. */
  readonly remoteStatus?: StatusListTokenSource;
  /** CREDGATE_FETCH_ALLOW_PRIVATE: webhooks to private addresses (tests, private deployments). */
  readonly allowPrivateWebhooks: boolean;
  /** CREDGATE_VERIFY_*: the per-response verification budget. */
  readonly limits?: VerificationLimits;
  readonly logger?: Logger;
}

/** Builds the verifier with the deployment's formats, trust and persistence (called by src/app.ts). */
export function createOid4vpVerifier(w: VerifierWiring): { service: Oid4vpVerifierService; drain: () => Promise<void> } {
  const repo = new PrismaOid4vpRequestRepository(w.prisma);
  // Certificates are judged at the verification's time, the same instant as the credential.
  const trustAt = (now: Date) => eitherTrust(x5cTrust(w.anchors, { now: () => now }), didTrust(w.resolver));
  const statusAt = (now: Date) =>
    w.remoteStatus ? createTokenStatusChecker({ ...(w.ownStatus ? { own: w.ownStatus } : {}), remote: w.remoteStatus, trust: trustAt(now), now: () => Math.floor(now.getTime() / 1000) }) : undefined;
  const sdJwt: SdJwtVcVerify = async (compact, o) => {
    const seconds = Math.floor(o.now.getTime() / 1000);
    const checkStatus = statusAt(o.now);
    const r = await verifySdJwtVc(compact, {
      trust: trustAt(o.now),
      keyBinding: { aud: o.keyBinding.aud, nonce: o.keyBinding.nonce, now: seconds, maxAgeSeconds: o.keyBinding.maxAgeSeconds },
      ...(checkStatus ? { checkStatus } : {}),
      now: seconds,
    });
    return { verified: r.verified, claims: r.claims, iss: r.iss, vct: r.vct, problems: r.problems };
  };
  const mdoc: MdocDeviceResponseVerify = async (bytes, o) => {
    const checkStatus = statusAt(o.now);
    const trust = trustAt(o.now);
    const r = await verifyDeviceResponse(bytes, {
      clientId: o.clientId,
      responseUri: o.responseUri,
      nonce: o.nonce,
      jwkThumbprint: o.jwkThumbprint ?? null,
      trust: (input) => trust({ ...(input.x5c ? { x5c: input.x5c } : {}), ...(input.iss ? { iss: input.iss } : {}), ...(input.kid ? { kid: input.kid } : {}) }),
      now: o.now,
      ...(o.expectedDocType ? { expectedDocType: o.expectedDocType } : {}),
      ...(checkStatus ? { checkStatus } : {}),
    });
    return { verified: r.verified, documents: r.documents.map((d) => ({ docType: d.docType, claims: d.claims })), problems: r.problems };
  };
  const formats: PresentationFormats = { 'dc+sd-jwt': sdJwt, mso_mdoc: mdoc };
  const webhooks = new HttpWebhookSender({ ...DEFAULT_WEBHOOK_POLICY, allowPrivate: w.allowPrivateWebhooks }, (id, status, attempts) => repo.recordWebhook(id, status, attempts), w.logger);
  const service = new Oid4vpVerifierService({
    repo,
    box: w.box,
    clock: w.clock,
    publicUrl: w.publicUrl,
    formats,
    ...(w.requestSigner ? { requestSigner: w.requestSigner } : {}),
    webhooks,
    ...(w.limits ? { limits: w.limits } : {}),
  });
  return { service, drain: () => webhooks.drain() };
}
