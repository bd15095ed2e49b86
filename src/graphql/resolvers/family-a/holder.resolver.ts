import { Arg, Authorized, Mutation, Query, Resolver } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { CredentialsService } from '../../../services/family-a/credentials.service';

/** Family A holder side: the consent signature and decryption, computed with the holder's key (nothing stored). */
@Resolver()
export class HolderResolver {
  constructor(private readonly credentials: CredentialsService) {}

  @Authorized('holder', 'issuer')
  @Mutation(() => String, { description: "REST: POST /user/sign. The holder's Ed25519 signature over the subject in payload, hex." })
  signUserData(
    @Arg('privateKey', () => String) privateKey: string,
    @Arg('issuerDid', () => String) issuerDid: string,
    @Arg('payload', () => GraphQLJSONObject) payload: Record<string, unknown>,
  ): string {
    return this.credentials.signSubject(privateKey, issuerDid, payload);
  }

  @Authorized('holder', 'issuer')
  @Query(() => GraphQLJSONObject, { description: 'REST: POST /user/decrypt. The plaintext subject of an encrypted credential.' })
  async decryptCredential(@Arg('privateKey', () => String) privateKey: string, @Arg('vc', () => GraphQLJSONObject) vc: Record<string, unknown>): Promise<Record<string, unknown>> {
    return { ...(await this.credentials.decrypt(privateKey, vc)) };
  }
}
