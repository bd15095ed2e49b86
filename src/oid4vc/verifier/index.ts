import type { Clock, SecretBox } from '../../domain/ports';
import { formats as defaultFormats, type FormatRegistry } from '../../formats/registry';
import { type OwnTokenStatusLists, type StatusListTokenSource, createTokenStatusChecker } from '../../formats/token-status-list';
import type { Logger } from '../../logging/logger';
import { type Der, didTrust, eitherTrust, x5cTrust } from '../../x509';
import type { DidResolver } from '../../vc/ports';
import type { PresentationFormats, RequestSignerOf } from './ports';
import type { RequestRepository } from './request-record';
import { Oid4vpVerifierService } from './verifier.service';
import { DEFAULT_WEBHOOK_POLICY, HttpWebhookSender } from './webhook';
import type { VerificationLimits } from '../../vc/net/request-budget';

export { Oid4vpVerifierService } from './verifier.service';
export type { CreatePresentationRequestInput, CreatedPresentationRequest, PresentationRequestView } from './verifier.service';
export type { PresentationResult, PresentedCredential, CredentialCheck } from './request-record';
export { WalletError, isWalletError } from './wallet-error';

export interface VerifierWiring {
  /** Where requests and their results are kept (src/db/repositories/oid4vp-request.repository.ts), injected like the issuer's store. */
  readonly requests: RequestRepository;
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
  /** The formats wallets may present (those with an `oid4vp` member); the service's registry by default. */
  readonly formats?: FormatRegistry;
}

/** Builds the verifier with the deployment's formats, trust and persistence (called by src/app.ts). */
export function createOid4vpVerifier(w: VerifierWiring): { service: Oid4vpVerifierService; drain: () => Promise<void> } {
  const repo = w.requests;
  // Certificates are judged at the verification's time, the same instant as the credential.
  const trustAt = (now: Date) => eitherTrust(x5cTrust(w.anchors, { now: () => now }), didTrust(w.resolver));
  const statusAt = (now: Date) =>
    w.remoteStatus ? createTokenStatusChecker({ ...(w.ownStatus ? { own: w.ownStatus } : {}), remote: w.remoteStatus, trust: trustAt(now), now: () => Math.floor(now.getTime() / 1000) }) : undefined;
  const registry = w.formats ?? defaultFormats;
  const formats: PresentationFormats = {
    forDcqlFormat(id) {
      const format = registry.forDcqlFormat(id);
      const oid4vp = format?.oid4vp;
      if (!format || !oid4vp) return undefined;
      return {
        id: format.id,
        verifyPresentation(entry, binding, now) {
          const checkTokenStatus = statusAt(now);
          return oid4vp.verifyPresentation(entry, binding, { now, trust: trustAt(now), ...(checkTokenStatus ? { checkTokenStatus } : {}) });
        },
      };
    },
    vpFormatsSupported: () => Object.fromEntries(registry.oid4vpFormats().flatMap((f) => (f.oid4vp?.dcqlFormats[0] !== undefined ? [[f.oid4vp.dcqlFormats[0], f.oid4vp.vpFormatsSupported]] : []))),
  };
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
