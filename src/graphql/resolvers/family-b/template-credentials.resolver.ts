import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { FamilyBCredentialsService } from '../../../services/family-b/credentials.service';
import type { GraphQLContext } from '../../context';
import type { IssueInput } from '../../../contracts/family-b/credentials';
import { IssueTemplateCredentialInput } from '../../types/family-b/credential.input';
import { CredentialRevocation, CredentialVerificationResult, TemplateCredentialStatus } from '../../types/family-b/credential.type';

/** Family B credentials: issued from templates, anchored in the issuer's log, revocable by status list. */
@Resolver()
export class TemplateCredentialsResolver {
  constructor(private readonly credentials: FamilyBCredentialsService) {}

  @Authorized('issuer')
  @Mutation(() => GraphQLJSONObject, { description: 'REST: POST /credentials. The signed credential document.' })
  async issueTemplateCredential(@Arg('input', () => IssueTemplateCredentialInput) input: IssueTemplateCredentialInput, @Ctx() ctx: GraphQLContext): Promise<Record<string, unknown>> {
    const body: IssueInput = {
      templateId: input.templateId,
      credentialSubject: input.credentialSubject,
      ...(input.holder != null ? { holder: input.holder } : {}),
    };
    return { ...(await this.credentials.issue(ctx.actor, body)) };
  }

  @Authorized('issuer', 'holder')
  @Query(() => GraphQLJSONObject, { description: "REST: GET /credentials/{id}. A credential the caller's tenant issued." })
  async templateCredential(@Arg('credentialId', () => String) credentialId: string, @Ctx() ctx: GraphQLContext): Promise<Record<string, unknown>> {
    return { ...(await this.credentials.fetch(ctx.actor, credentialId)).document };
  }

  @Authorized('issuer', 'holder')
  @Query(() => TemplateCredentialStatus, { description: 'REST: the Credential-Status and Credential-Revoked-At headers of GET /credentials/{id}.' })
  async templateCredentialStatus(@Arg('credentialId', () => String) credentialId: string, @Ctx() ctx: GraphQLContext): Promise<TemplateCredentialStatus> {
    const r = await this.credentials.fetch(ctx.actor, credentialId);
    return { id: credentialId, status: r.status, revokedAt: r.revokedAt };
  }

  @Authorized('issuer')
  @Mutation(() => CredentialRevocation, { description: 'REST: DELETE /credentials/{id}. Sets the status bit and anchors the revocation; idempotent.' })
  async revokeTemplateCredential(@Arg('credentialId', () => String) credentialId: string, @Ctx() ctx: GraphQLContext): Promise<CredentialRevocation> {
    const r = await this.credentials.revoke(ctx.actor, credentialId);
    return { id: r.id, status: r.status, revokedAt: r.revokedAt };
  }

  @Authorized('verifier', 'issuer', 'holder')
  @Query(() => CredentialVerificationResult, {
    description:
      'REST: POST /credentials/verify. Unlike REST, which answers 400 when the credential does not verify, an invalid credential is an answer here: verified false, with the failed checks.',
  })
  async verifyTemplateCredential(@Arg('credential', () => GraphQLJSONObject) credential: Record<string, unknown>): Promise<CredentialVerificationResult> {
    const r = await this.credentials.verify(credential);
    return {
      verified: r.verified,
      checks: r.checks.map((c) => ({ check: c.check, ok: c.ok, detail: c.detail ?? null })),
      anchor: r.anchor ? { ...r.anchor, inclusionProof: [...r.anchor.inclusionProof] } : null,
    };
  }
}
