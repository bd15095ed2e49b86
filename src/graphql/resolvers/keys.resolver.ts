import { Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import type { KeysService } from '../../services/keys.service';
import type { UsersService } from '../../services/users.service';
import type { GraphQLContext } from '../context';
import { GeneratedKeypair, UserKeyPair } from '../types/keypair.type';

@Resolver()
export class KeysResolver {
  constructor(
    private readonly keys: KeysService,
    private readonly users: UsersService,
  ) {}

  @Authorized('issuer', 'holder')
  @Mutation(() => GeneratedKeypair, { description: 'REST: GET /generate-keypair.' })
  generateKeypair(@Ctx() ctx: GraphQLContext): Promise<GeneratedKeypair> {
    return this.keys.generateKeypair(ctx.actor);
  }

  @Authorized('holder', 'issuer')
  @Mutation(() => UserKeyPair, { description: 'REST: GET /user/generateKeyPair (Family A, Ed25519, not stored).' })
  generateUserKeyPair(): UserKeyPair {
    return this.users.generateKeyPair();
  }
}
