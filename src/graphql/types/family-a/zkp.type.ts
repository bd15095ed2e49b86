import { Field, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@ObjectType({ description: 'REST: the answer of POST /issuer/createZkp. A signed predicate attestation by the issuer.' })
export class ZkpCertificatePayload {
  @Field(() => GraphQLJSONObject, { description: 'attribute/condition → outcome (booleans).' })
  certificate!: Record<string, unknown>;

  @Field(() => String, { description: "The issuer's Ed25519 signature over {credentialId, certificate}, hex." })
  userSignature!: string;

  @Field(() => String, { description: "The issuer's Ed25519 public key, base64." })
  publicKey!: string;
}
