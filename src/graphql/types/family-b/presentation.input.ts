import { Field, InputType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@InputType({ description: 'REST: the body of POST /create-vp. Give credentialIds or credentials, not both.' })
export class CreatePresentationInput {
  @Field(() => [String], { nullable: true, description: "Ids of the tenant's issued credentials." })
  credentialIds?: string[];

  @Field(() => [GraphQLJSONObject], { nullable: true, description: 'Credential documents carrying a valid issuer signature.' })
  credentials?: Record<string, unknown>[];

  @Field(() => GraphQLJSONObject, { description: 'credential id → the attribute names to disclose.' })
  sharedAttributes!: Record<string, unknown>;

  @Field(() => String)
  holderDID!: string;

  @Field(() => String, { nullable: true })
  challenge?: string;

  @Field(() => String, { nullable: true })
  domain?: string;

  @Field(() => String, { nullable: true, description: 'secp256k1, hex; omit when the service holds the key of holderDID. Used for this call only.' })
  holderPrivateKey?: string;
}

@InputType({ description: 'REST: the body of POST /verify-vp.' })
export class VerifyPresentationInput {
  @Field(() => GraphQLJSONObject, { description: 'The presentation createPresentation returned.' })
  vpToken!: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, { description: 'credential id → the attribute names expected to be disclosed.' })
  sharedAttributes!: Record<string, unknown>;

  @Field(() => String)
  holderDID!: string;

  @Field(() => String, { description: 'secp256k1 public key of holderDID, hex.' })
  holderPublicKey!: string;

  @Field(() => String, { nullable: true })
  challenge?: string;

  @Field(() => String, { nullable: true })
  domain?: string;
}
