import type { PrismaClient } from '../../db/database';
import { PrismaOid4vpRequestRepository } from '../../db/repositories/oid4vp-request.repository';
import type { Clock, SecretBox } from '../../domain/ports';
import { verifySdJwtVc, type StatusListReference } from '../../formats/sd-jwt-vc';
import type { Logger } from '../../logging/logger';
import { type Der, didTrust, eitherTrust, x5cTrust } from '../../x509';
import type { DidResolver } from '../../vc/ports';
import type { PresentationFormats, RequestSignerOf, SdJwtVcVerify } from './ports';
import { Oid4vpVerifierService } from './verifier.service';
import { DEFAULT_WEBHOOK_POLICY, HttpWebhookSender } from './webhook';

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
  /** Reads a Token Status List entry (0 = valid); absent: status is not checked. */
  readonly statusOf?: (ref: StatusListReference) => Promise<number>;
  /** CREDGATE_FETCH_ALLOW_PRIVATE: webhooks to private addresses (tests, private deployments). */
  readonly allowPrivateWebhooks: boolean;
  readonly logger?: Logger;
}

/** Builds the verifier with the deployment's formats, trust and persistence (called by src/app.ts). */
export function createOid4vpVerifier(w: VerifierWiring): { service: Oid4vpVerifierService; drain: () => Promise<void> } {
  const repo = new PrismaOid4vpRequestRepository(w.prisma);
  const trust = eitherTrust(x5cTrust(w.anchors), didTrust(w.resolver));
  const sdJwt: SdJwtVcVerify = async (compact, o) => {
    const seconds = Math.floor(o.now.getTime() / 1000);
    const r = await verifySdJwtVc(compact, {
      trust,
      keyBinding: { aud: o.keyBinding.aud, nonce: o.keyBinding.nonce, now: seconds, maxAgeSeconds: o.keyBinding.maxAgeSeconds },
      ...(w.statusOf ? { checkStatus: w.statusOf } : {}),
      now: seconds,
    });
    return { verified: r.verified, claims: r.claims, iss: r.iss, vct: r.vct, problems: r.problems };
  };
  const formats: PresentationFormats = { 'dc+sd-jwt': sdJwt };
  const webhooks = new HttpWebhookSender({ ...DEFAULT_WEBHOOK_POLICY, allowPrivate: w.allowPrivateWebhooks }, (id, status, attempts) => repo.recordWebhook(id, status, attempts), w.logger);
  const service = new Oid4vpVerifierService({
    repo,
    box: w.box,
    clock: w.clock,
    publicUrl: w.publicUrl,
    formats,
    ...(w.requestSigner ? { requestSigner: w.requestSigner } : {}),
    webhooks,
  });
  return { service, drain: () => webhooks.drain() };
}
