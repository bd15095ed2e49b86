import { Field, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@ObjectType({ description: 'REST: the answer of POST/PUT /issuer/verifiableCredential.' })
export class IssueCredentialPayload {
  @Field(() => GraphQLJSONObject)
  verifiableCredential!: Record<string, unknown>;

  @Field(() => String)
  userSignature!: string;

  @Field(() => String, { nullable: true, description: 'The signed QR-ready text, when isCryptograph.' })
  cryptograph!: string | null;

  @Field(() => String, { nullable: true, description: 'The cryptograph QR code, PNG in base64, when downloadCryptograph.' })
  cryptographPng!: string | null;
}

@ObjectType({ description: 'REST: the answer of DELETE /issuer/verifiableCredential.' })
export class RevokeCredentialPayload {
  @Field(() => Boolean)
  revoked!: boolean;

  @Field(() => String)
  credentialId!: string;

  @Field(() => String)
  message!: string;
}
