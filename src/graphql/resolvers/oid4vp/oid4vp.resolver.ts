import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { Oid4vpVerifierService, PresentationRequestView } from '../../../oid4vc/verifier';
import type { GraphQLContext } from '../../context';
import { CreatePresentationRequestInput } from '../../types/oid4vp/oid4vp.input';
import { CreatedPresentationRequest, PresentationRequest } from '../../types/oid4vp/oid4vp.type';

const toType = (v: PresentationRequestView): PresentationRequest => ({ ...v, result: v.result as unknown as Record<string, unknown> | null });

/** The relying party's OID4VP operations: the same service as the REST routes under /oid4vp/requests. */
@Resolver()
export class Oid4vpResolver {
  constructor(private readonly verifier: Oid4vpVerifierService) {}

  @Authorized('verifier')
  @Mutation(() => CreatedPresentationRequest, { description: 'REST: POST /oid4vp/requests.' })
  async createPresentationRequest(@Arg('input', () => CreatePresentationRequestInput) input: CreatePresentationRequestInput, @Ctx() ctx: GraphQLContext): Promise<CreatedPresentationRequest> {
    const created = await this.verifier.create(ctx.actor, {
      dcqlQuery: input.dcqlQuery,
      responseMode: input.responseMode ?? undefined,
      clientIdPrefix: input.clientIdPrefix ?? undefined,
      webhookUrl: input.webhookUrl ?? undefined,
      expiresInSeconds: input.expiresInSeconds ?? undefined,
    });
    return { ...toType(created), webhookSecret: created.webhookSecret };
  }

  @Authorized('verifier')
  @Query(() => PresentationRequest, { description: 'REST: GET /oid4vp/requests/{id} (and /result).' })
  async presentationRequest(@Arg('id', () => String) id: string, @Ctx() ctx: GraphQLContext): Promise<PresentationRequest> {
    return toType(await this.verifier.get(ctx.actor, id));
  }
}
