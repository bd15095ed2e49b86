import { Arg, Authorized, Mutation, Query, Resolver } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';
import type { SignaturesService } from '../../../services/family-b/signatures.service';

/** Family B data signatures: secp256k1 over SHA-256 of the data (canonical JSON, or a string's text). Nothing stored. */
@Resolver()
export class SignaturesResolver {
  constructor(private readonly signatures: SignaturesService) {}

  @Authorized('holder', 'issuer')
  @Mutation(() => String, { description: 'REST: POST /signature/create. The secp256k1 signature (r||s, hex); privateKey (hex) is used for this call only.' })
  createSignature(@Arg('data', () => GraphQLJSON) data: unknown, @Arg('privateKey', () => String) privateKey: string): string {
    return this.signatures.create({ data, privateKey }).signature;
  }

  @Authorized('verifier', 'issuer', 'holder')
  @Query(() => Boolean, { description: 'REST: POST /signature/verify. True when valid; an invalid signature is an error with code VERIFICATION_FAILED (REST: 400).' })
  verifySignature(
    @Arg('signature', () => String) signature: string,
    @Arg('data', () => GraphQLJSON) data: unknown,
    @Arg('publicKey', () => String) publicKey: string,
  ): boolean {
    return this.signatures.verify({ signature, data, publicKey }).valid;
  }
}
