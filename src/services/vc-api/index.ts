import type { Clock, KeyCustody } from '../../domain/ports';
import type { VcIssuerRepository, VcStatusRepository } from '../../domain/vc-issuers';
import type { DidResolver, StatusListSource } from '../../vc/ports';
import { VcDeriveService } from './derive.service';
import { VcIssueService } from './issue.service';
import { VcIssuersService } from './issuers.service';
import { VcStatusListsService } from './status-lists.service';
import { VcVerifyService } from './verify.service';
import type { RevocationListener } from '../token-status-list.service';
import { type VerificationService, withRequestBudgets } from './verify-scope';
import { DEFAULT_VERIFICATION_LIMITS, RequestBudgets, type VerificationLimits } from '../../vc/net/request-budget';
import { type RelatedResourceSource, createHttpResourceSource } from '../../vc/related-resource';

export type { VcVerificationResult, ProblemDetail } from './problems';
export type { IssueCredentialInput, IssuerSelector } from './issue.service';
export type { DeriveCredentialInput } from './derive.service';
export type { VcIssuerView } from './issuers.service';
export type { PublishedStatusList, StatusUpdate, UpdateStatusInput } from './status-lists.service';
export type { VerifyCredentialInput, VerifyPresentationInput } from './verify.service';
export type { VerificationService } from './verify-scope';
export { VcDeriveService, VcIssueService, VcIssuersService, VcStatusListsService, VcVerifyService };

/** The VC-API use cases, built once for both transports. */
export interface VcApiServices {
  readonly issuers: VcIssuersService;
  readonly issuance: VcIssueService;
  /** Selective disclosure (POST /credentials/derive): the format that recognises the credential derives it. */
  readonly derivation: VcDeriveService;
  readonly status: VcStatusListsService;
  /** Budgeted per transport request (verify-scope.ts). */
  readonly verification: VerificationService;
  /** The base path the routes are mounted under (CREDGATE_VC_API_BASE). */
  readonly base: string;
}

export interface VcApiDeps {
  readonly issuerRepo: VcIssuerRepository;
  readonly statusRepo: VcStatusRepository;
  readonly custody: KeyCustody;
  readonly clock: Clock;
  readonly publicUrl: string;
  readonly base: string;
  readonly resolver: DidResolver;
  /** Other issuers' status lists (HTTPS, cached); the service's own lists are read from the database. */
  readonly remoteStatus: StatusListSource;
  /** relatedResource bytes (VCDM 2.0 §5.3); default: HTTPS to public addresses only. */
  readonly relatedResources?: RelatedResourceSource;
  /** The per-request verification budget (CREDGATE_VERIFY_*). */
  readonly verificationLimits?: VerificationLimits;
  /** Told of every revocation, so token status lists the credential is in flip too. */
  readonly revocations?: RevocationListener;
}

export function createVcApiServices(d: VcApiDeps): VcApiServices {
  const issuers = new VcIssuersService(d.issuerRepo, d.custody, d.base);
  const status = new VcStatusListsService(d.statusRepo, issuers, d.clock, `${d.publicUrl}${d.base}/status-lists/`, d.revocations);
  return {
    issuers,
    issuance: new VcIssueService(issuers, status, d.statusRepo, d.clock),
    derivation: new VcDeriveService(),
    status,
    verification: withRequestBudgets(
      new VcVerifyService(d.resolver, status.source(d.remoteStatus), d.clock, d.relatedResources ?? createHttpResourceSource()),
      new RequestBudgets(d.verificationLimits ?? DEFAULT_VERIFICATION_LIMITS),
    ),
    base: d.base,
  };
}
