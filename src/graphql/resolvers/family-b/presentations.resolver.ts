import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { PresentationsService } from '../../../services/family-b/presentations.service';
import type { CreatePresentationInput as CreatePresentationServiceInput, VerifyPresentationInput as VerifyPresentationServiceInput } from '../../../contracts/family-b/presentations';
import type { GraphQLContext } from '../../context';
import { CreatePresentationInput, VerifyPresentationInput } from '../../types/family-b/presentation.input';
import { PresentationVerification } from '../../types/family-b/presentation.type';

/** The service's input from the GraphQL arguments: GraphQL's null (not given) is left out. */
function toCreateInput(input: CreatePresentationInput): CreatePresentationServiceInput {
  return {
    holderDID: input.holderDID,
    sharedAttributes: input.sharedAttributes,
    ...(input.credentialIds != null ? { credentialIds: input.credentialIds } : {}),
    ...(input.credentials != null ? { credentials: input.credentials } : {}),
    ...(input.challenge != null ? { challenge: input.challenge } : {}),
    ...(input.domain != null ? { domain: input.domain } : {}),
    ...(input.holderPrivateKey != null ? { holderPrivateKey: input.holderPrivateKey } : {}),
  };
}

/** The service's input from the GraphQL arguments: GraphQL's null (not given) is left out. */
function toVerifyInput(input: VerifyPresentationInput): VerifyPresentationServiceInput {
  return {
    vpToken: input.vpToken,
    sharedAttributes: input.sharedAttributes,
    holderDID: input.holderDID,
    holderPublicKey: input.holderPublicKey,
    ...(input.challenge != null ? { challenge: input.challenge } : {}),
    ...(input.domain != null ? { domain: input.domain } : {}),
  };
}

/** Family B verifiable presentations with selective disclosure. */
@Resolver()
export class PresentationsResolver {
  constructor(private readonly presentations: PresentationsService) {}

  @Authorized('holder')
  @Mutation(() => GraphQLJSONObject, { description: 'REST: POST /create-vp. The signed presentation (REST: `vpToken`), showing only the shared attributes.' })
  async createPresentation(@Arg('input', () => CreatePresentationInput) input: CreatePresentationInput, @Ctx() ctx: GraphQLContext): Promise<Record<string, unknown>> {
    return { ...(await this.presentations.create(ctx.actor, toCreateInput(input))).vpToken };
  }

  @Authorized('verifier', 'issuer', 'holder')
  @Query(() => PresentationVerification, { description: 'REST: POST /verify-vp. An invalid presentation is an error with code VERIFICATION_FAILED (REST: 400).' })
  async verifyPresentation(@Arg('input', () => VerifyPresentationInput) input: VerifyPresentationInput): Promise<PresentationVerification> {
    const r = await this.presentations.verify(toVerifyInput(input));
    return { message: r.message };
  }
}
