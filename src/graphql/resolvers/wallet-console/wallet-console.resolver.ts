import { Arg, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { WalletConsoleService } from '../../../services/wallet-console.service';
import type { GraphQLContext } from '../../context';
import { OfferableConfigurations, PresentationRequestQr } from '../../types/wallet-console/wallet-console.type';

/** The operator page's two reads (the page itself uses REST; GraphQL clients get the same answers). */
@Resolver()
export class WalletConsoleResolver {
  constructor(private readonly page: WalletConsoleService) {}

  @Authorized('issuer')
  @Query(() => OfferableConfigurations, { description: 'REST: GET /wallets/api/configurations.' })
  async offerableConfigurations(@Ctx() ctx: GraphQLContext): Promise<OfferableConfigurations> {
    const answer = await this.page.configurations(ctx.actor);
    return { credentialIssuer: answer.credentialIssuer, configurations: [...answer.configurations] };
  }

  @Authorized('verifier')
  @Query(() => PresentationRequestQr, { description: 'REST: GET /wallets/api/presentation-requests/{id}/qr.' })
  async presentationRequestQr(@Arg('id', () => String) id: string, @Ctx() ctx: GraphQLContext): Promise<PresentationRequestQr> {
    return this.page.presentationRequestQr(ctx.actor, id);
  }
}
