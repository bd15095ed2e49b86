import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { ZkpTokensService } from '../../../services/family-b/zkp-tokens.service';
import type { GraphQLContext } from '../../context';
import { CreateZkpTokenInput, VerifyZkpTokenInput } from '../../types/family-b/zkp-token.input';
import { ZkHolderSignature, ZkIssuerKey, ZkpTokenPayload, ZkpTokenVerification } from '../../types/family-b/zkp-token.type';

/** Family B ZKP tokens: the issuer signs the outcome of an age condition (a signed predicate attestation). */
@Resolver()
export class ZkpTokensResolver {
  constructor(private readonly zkpTokens: ZkpTokensService) {}

  @Authorized('issuer')
  @Mutation(() => ZkpTokenPayload, { description: 'REST: POST /createZkpToken.' })
  async createZkpToken(@Arg('input', () => CreateZkpTokenInput) input: CreateZkpTokenInput, @Ctx() ctx: GraphQLContext): Promise<ZkpTokenPayload> {
    const r = await this.zkpTokens.create(ctx.actor, {
      ...(input.credentialId != null ? { credentialId: input.credentialId } : {}),
      ...(input.credential != null ? { credential: input.credential } : {}),
      ...(input.attribute != null ? { attribute: input.attribute } : {}),
      condition: { age: input.condition.age },
      ...(input.proofSystem != null ? { proofSystem: input.proofSystem } : {}),
      ...(input.verifierChallenge != null ? { verifierChallenge: { verifierId: input.verifierChallenge.verifierId, nonce: input.verifierChallenge.nonce } } : {}),
      ...(input.pseudonym != null ? { pseudonym: input.pseudonym } : {}),
    });
    const d = r.zkpData;
    const calculatedAge = 'calculatedAge' in d ? d.calculatedAge : null;
    return { zkpToken: r.zkpToken, zkpData: { condition: { age: d.condition.age }, conditionMet: d.conditionMet, calculatedAge }, publicKey: r.publicKey, proofSystem: r.proofSystem };
  }

  @Authorized('verifier', 'issuer', 'holder')
  @Query(() => ZkpTokenVerification, { description: 'REST: POST /verifyZkpToken. An invalid token is an error with code VERIFICATION_FAILED (REST: 400).' })
  async verifyZkpToken(@Arg('input', () => VerifyZkpTokenInput) input: VerifyZkpTokenInput, @Ctx() ctx: GraphQLContext): Promise<ZkpTokenVerification> {
    const d = input.zkpData;
    const r = await this.zkpTokens.verify(
      {
        zkpToken: input.zkpToken,
        zkpData: { condition: { age: d.condition.age }, conditionMet: d.conditionMet, ...(d.calculatedAge != null ? { calculatedAge: d.calculatedAge } : {}) },
        publicKey: input.publicKey,
        ...(input.holderDID != null ? { holderDID: input.holderDID } : {}),
        ...(input.proofSystem != null ? { proofSystem: input.proofSystem } : {}),
        ...(input.verifierChallenge != null ? { verifierChallenge: { verifierId: input.verifierChallenge.verifierId, nonce: input.verifierChallenge.nonce } } : {}),
      },
      ctx.actor,
    );
    return { success: r.success, conditionMet: r.conditionMet, calculatedAge: r.calculatedAge, message: r.message, issuer: r.issuer, credentialId: r.credentialId, holder: r.holder, issuedAt: r.issuedAt, expiresAt: r.expiresAt, proofSystem: r.proofSystem, pseudonym: r.pseudonym ?? null };
  }

  @Authorized('verifier', 'issuer', 'holder')
  @Query(() => ZkIssuerKey, { description: 'REST: GET /zk/issuer-key/{did}.' })
  async zkIssuerKey(@Arg('did', () => String) did: string, @Ctx() ctx: GraphQLContext): Promise<ZkIssuerKey> {
    return { ...(await this.zkpTokens.issuerKey(did, ctx.actor)) };
  }

  @Authorized('holder')
  @Mutation(() => ZkHolderSignature, { description: "REST: POST /zk/holder-signature. The issuer's BBS signature over the caller's own credential (holder-bound keys only), valid through today (UTC), for the SDK's local proveZkAge." })
  async zkHolderSignature(@Arg('credentialId', () => String) credentialId: string, @Ctx() ctx: GraphQLContext): Promise<ZkHolderSignature> {
    return { ...(await this.zkpTokens.holderSignature(ctx.actor, { credentialId })) };
  }
}
