import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { invalidInput } from '../../../errors';
import type { VcApiServices, VcVerificationResult as Result } from '../../../services/vc-api';
import type { GraphQLContext } from '../../context';
import { VcCreateIssuerInput, VcDeriveCredentialInput, VcIssueCredentialInput, VcUpdateCredentialStatusInput, VcVerifyCredentialInput, VcVerifyPresentationInput } from '../../types/vc-api/vc-api.input';
import { VcDeriveResult, VcIssueResult, VcIssuer, VcStatusUpdate, VcVerificationResult } from '../../types/vc-api/vc-api.type';

const toResult = (r: Result): VcVerificationResult => ({
  verified: r.verified,
  checks: r.checks,
  warnings: r.warnings.map((p) => ({ type: p.type, title: p.title, detail: p.detail ?? null })),
  errors: r.errors.map((p) => ({ type: p.type, title: p.title, detail: p.detail ?? null })),
});

/** The W3C VC-API through GraphQL: the same services as the REST routes under /vc-api. */
@Resolver()
export class VcApiResolver {
  constructor(private readonly vc: VcApiServices) {}

  @Authorized('issuer')
  @Mutation(() => VcIssuer, { description: 'REST: POST /vc-api/issuers.' })
  vcCreateIssuer(@Arg('input', () => VcCreateIssuerInput) input: VcCreateIssuerInput, @Ctx() ctx: GraphQLContext): Promise<VcIssuer> {
    return this.vc.issuers.create(ctx.actor, { cryptosuite: input.cryptosuite, keyType: input.keyType ?? undefined });
  }

  @Authorized('issuer')
  @Query(() => [VcIssuer], { description: "REST: GET /vc-api/issuers. The tenant's issuer instances, oldest first." })
  vcIssuers(@Ctx() ctx: GraphQLContext): Promise<VcIssuer[]> {
    return this.vc.issuers.list(ctx.actor);
  }

  @Authorized('issuer')
  @Mutation(() => VcIssueResult, { description: 'REST: POST /vc-api/credentials/issue, or /vc-api/issuers/{issuerId}/credentials/issue.' })
  async vcIssueCredential(@Arg('input', () => VcIssueCredentialInput) input: VcIssueCredentialInput, @Ctx() ctx: GraphQLContext): Promise<VcIssueResult> {
    const selector = input.issuerId != null ? { kind: 'instance' as const, id: input.issuerId } : { kind: 'default' as const };
    return this.vc.issuance.issue(ctx.actor, selector, { credential: input.credential, ...(input.options != null ? { options: input.options } : {}) });
  }

  @Authorized('holder', 'issuer')
  @Mutation(() => VcDeriveResult, { description: 'REST: POST /vc-api/credentials/derive. Selective disclosure of a bbs-2023 credential; each derivation is unlinkable to the others.' })
  vcDeriveCredential(@Arg('input', () => VcDeriveCredentialInput) input: VcDeriveCredentialInput): Promise<VcDeriveResult> {
    return this.vc.derivation.derive({ verifiableCredential: input.verifiableCredential, options: { selectivePointers: input.selectivePointers ?? undefined } });
  }

  @Authorized('verifier')
  @Query(() => VcVerificationResult, { description: 'REST: POST /vc-api/credentials/verify (which answers 422 when not verified).' })
  async vcVerifyCredential(@Arg('input', () => VcVerifyCredentialInput) input: VcVerifyCredentialInput, @Ctx() ctx: GraphQLContext): Promise<VcVerificationResult> {
    // The context scopes one verification budget per HTTP request: aliases share it.
    return toResult(await this.vc.verification.verifyCredential({ verifiableCredential: input.verifiableCredential, ...(input.options != null ? { options: input.options } : {}) }, ctx));
  }

  @Authorized('verifier')
  @Query(() => VcVerificationResult, { description: 'REST: POST /vc-api/presentations/verify (which answers 422 when not verified).' })
  async vcVerifyPresentation(@Arg('input', () => VcVerifyPresentationInput) input: VcVerifyPresentationInput, @Ctx() ctx: GraphQLContext): Promise<VcVerificationResult> {
    const given = (input.verifiablePresentation != null ? 1 : 0) + (input.presentation != null ? 1 : 0);
    if (given !== 1) throw invalidInput('give exactly one of verifiablePresentation and presentation', [{ field: 'verifiablePresentation', message: 'exactly one of verifiablePresentation, presentation' }]);
    return toResult(
      await this.vc.verification.verifyPresentation({
        ...(input.verifiablePresentation != null ? { verifiablePresentation: input.verifiablePresentation } : {}),
        ...(input.presentation != null ? { presentation: input.presentation } : {}),
        ...(input.options != null ? { options: input.options } : {}),
      }, ctx),
    );
  }

  @Authorized('issuer')
  @Mutation(() => VcStatusUpdate, { description: "REST: POST /vc-api/credentials/status. Revokes, suspends or unsuspends one of the tenant's credentials; idempotent." })
  vcUpdateCredentialStatus(@Arg('input', () => VcUpdateCredentialStatusInput) input: VcUpdateCredentialStatusInput, @Ctx() ctx: GraphQLContext): Promise<VcStatusUpdate> {
    return this.vc.status.update(ctx.actor, { credentialId: input.credentialId, credentialStatus: { type: 'BitstringStatusListEntry', statusPurpose: input.statusPurpose }, status: input.status });
  }
}
