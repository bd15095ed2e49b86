import { Arg, Authorized, Mutation, Query, Resolver } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { CredentialsService } from '../../../services/family-a/credentials.service';
import type { HolderProofService } from '../../../services/family-a/holder-proof.service';

/** Family A holder side: the consent signature and decryption, computed with the holder's key (nothing stored). */
@Resolver()
export class HolderResolver {
  constructor(
    private readonly credentials: CredentialsService,
    private readonly holderProofs: HolderProofService,
  ) {}

  @Authorized('holder', 'issuer')
  @Mutation(() => String, { description: "REST: POST /user/sign. The holder's Ed25519 consent signature over the subject bound to issuerDid (and schemaName when given), hex." })
  signUserData(
    @Arg('privateKey', () => String) privateKey: string,
    @Arg('issuerDid', () => String) issuerDid: string,
    @Arg('payload', () => GraphQLJSONObject) payload: Record<string, unknown>,
    @Arg('schemaName', () => String, { nullable: true, description: '`<name>` or `<name>:<version>`: binds the consent to that schema too.' }) schemaName?: string | null,
  ): string {
    return this.credentials.signSubject(privateKey, issuerDid, payload, schemaName ?? undefined);
  }

  @Authorized('holder', 'issuer')
  @Mutation(() => String, { description: "REST: POST /user/holderProof. The holder's fresh proof for one credential: purpose verify (with the verifier's nonce) or revoke; hex." })
  signHolderProof(
    @Arg('privateKey', () => String) privateKey: string,
    @Arg('credentialId', () => String) credentialId: string,
    @Arg('purpose', () => String, { description: '`verify` or `revoke`.' }) purpose: string,
    @Arg('nonce', () => String, { nullable: true, description: "The verifier's challenge (purpose verify only)." }) nonce?: string | null,
  ): string {
    return this.holderProofs.sign(privateKey, { credentialId, purpose, nonce });
  }

  @Authorized('holder', 'issuer')
  @Query(() => GraphQLJSONObject, { description: 'REST: POST /user/decrypt. The plaintext subject of an encrypted credential.' })
  async decryptCredential(@Arg('privateKey', () => String) privateKey: string, @Arg('vc', () => GraphQLJSONObject) vc: Record<string, unknown>): Promise<Record<string, unknown>> {
    return { ...(await this.credentials.decrypt(privateKey, vc)) };
  }
}
