import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { invalidInput } from '../../../errors';
import type { CredentialOffersService, IssuedCredentialsService, OfferGrant } from '../../../oid4vc/issuer';
import type { GraphQLContext } from '../../context';
import { CreateCredentialOfferInput } from '../../types/oid4vci/offer.input';
import { CreatedCredentialOffer, CredentialOffer, CredentialOfferPage, IssuedOid4vciCredential } from '../../types/oid4vci/offer.type';

const GRANTS: readonly string[] = ['pre-authorized_code', 'authorization_code'];

/** The issuer-admin operations on OpenID4VCI offers: the same service as REST /oid4vci/offers. */
@Resolver()
export class Oid4vciOffersResolver {
  constructor(
    private readonly offers: CredentialOffersService,
    private readonly issued: IssuedCredentialsService,
  ) {}

  @Authorized('issuer')
  @Mutation(() => CreatedCredentialOffer, { description: 'REST: POST /oid4vci/offers.' })
  createCredentialOffer(@Arg('input', () => CreateCredentialOfferInput) input: CreateCredentialOfferInput, @Ctx() ctx: GraphQLContext): Promise<CreatedCredentialOffer> {
    const grants = input.grants ?? undefined;
    if (grants && (grants.length === 0 || grants.some((g) => !GRANTS.includes(g)))) throw invalidInput('grants must be pre-authorized_code and/or authorization_code', [{ field: 'grants', message: 'unknown grant' }]);
    return this.offers.create(ctx.actor, {
      credentialConfigurationIds: input.credentialConfigurationIds,
      claims: input.claims,
      ...(grants ? { grants: grants as OfferGrant[] } : {}),
      ...(input.txCodeLength != null ? { txCodeLength: input.txCodeLength } : {}),
      ...(input.byReference != null ? { byReference: input.byReference } : {}),
      ...(input.deferred != null ? { deferred: input.deferred } : {}),
      ...(input.expiresInSeconds != null ? { expiresInSeconds: input.expiresInSeconds } : {}),
    }) as Promise<CreatedCredentialOffer>;
  }

  @Authorized('issuer')
  @Query(() => CredentialOfferPage, { description: 'REST: GET /oid4vci/offers (newest first).' })
  credentialOffers(
    @Ctx() ctx: GraphQLContext,
    @Arg('first', () => Int, { nullable: true }) first?: number | null,
    @Arg('after', () => String, { nullable: true }) after?: string | null,
  ): Promise<CredentialOfferPage> {
    return this.offers.list(ctx.actor, { ...(first != null ? { first } : {}), ...(after != null ? { after } : {}) }) as Promise<CredentialOfferPage>;
  }

  @Authorized('issuer')
  @Query(() => CredentialOffer, { description: 'REST: GET /oid4vci/offers/{offerId}.' })
  credentialOffer(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<CredentialOffer> {
    return this.offers.get(ctx.actor, id) as Promise<CredentialOffer>;
  }

  @Authorized('issuer')
  @Query(() => [IssuedOid4vciCredential], { description: 'REST: GET /oid4vci/offers/{offerId}/credentials (oldest first). Each id is revoked alone by revokeTemplateCredential.' })
  credentialOfferCredentials(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<IssuedOid4vciCredential[]> {
    return this.issued.list(ctx.actor, id) as Promise<IssuedOid4vciCredential[]>;
  }

  @Authorized('issuer')
  @Mutation(() => CredentialOffer, { description: 'REST: DELETE /oid4vci/offers/{offerId}.' })
  revokeCredentialOffer(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<CredentialOffer> {
    return this.offers.revoke(ctx.actor, id) as Promise<CredentialOffer>;
  }

  @Authorized('issuer')
  @Mutation(() => CredentialOffer, { description: 'REST: POST /oid4vci/offers/{offerId}/ready.' })
  markCredentialOfferReady(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<CredentialOffer> {
    return this.offers.markReady(ctx.actor, id) as Promise<CredentialOffer>;
  }
}
