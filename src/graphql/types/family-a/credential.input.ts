import { Field, InputType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@InputType({ description: "The holder's consent (REST: the did, publicKey and userSignature headers)." })
export class HolderProofInput {
  @Field(() => String, { description: 'The holder DID: a registered user DID or an Ed25519 did:key.' })
  did!: string;

  @Field(() => String, { description: 'The holder Ed25519 public key, base64.' })
  publicKey!: string;

  @Field(() => String, { description: 'The holder signature over credentialSubject (signUserData), hex.' })
  userSignature!: string;
}

@InputType({ description: 'REST: the body of POST/PUT /issuer/verifiableCredential.' })
export class IssueCredentialInput {
  @Field(() => String, { description: '`<name>` (latest version) or `<name>:<version>`.' })
  schemaName!: string;

  @Field(() => Boolean, { nullable: true, defaultValue: false })
  isEncrypted?: boolean;

  @Field(() => [GraphQLJSONObject], { nullable: true })
  dependantVerifiableCredential?: Record<string, unknown>[];

  @Field(() => GraphQLJSONObject)
  credentialSubject!: Record<string, unknown>;

  @Field(() => String, {
    nullable: true,
    description:
      'A gallery face template (createFaceTemplates) to bind; the credential shows only a salted commitment in biometrics.face. Re-issue: omitted keeps the bound face, null removes it.',
  })
  faceTemplate?: string | null;
}
