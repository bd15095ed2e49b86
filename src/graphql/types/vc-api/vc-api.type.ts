import { Field, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@ObjectType({ description: 'REST: POST /vc-api/issuers. A did:key issuer instance whose key the service holds.' })
export class VcIssuer {
  @Field(() => String)
  id!: string;

  @Field(() => String, { description: 'The instance did:key.' })
  issuer!: string;

  @Field(() => String, { description: 'The REST path that issues with this instance.' })
  issueEndpoint!: string;

  @Field(() => String, { description: 'eddsa-rdfc-2022, eddsa-jcs-2022, ecdsa-rdfc-2019, Ed25519Signature2020 or vc+jwt.' })
  cryptosuite!: string;

  @Field(() => String, { description: 'Ed25519, P-256 or P-384.' })
  keyType!: string;

  @Field(() => Boolean, { description: "The tenant's default instance (used by vcIssueCredential without issuerId)." })
  default!: boolean;
}

@ObjectType({ description: 'REST: the answer of POST /vc-api/credentials/issue.' })
export class VcIssueResult {
  @Field(() => GraphQLJSONObject, { description: 'The secured credential (an EnvelopedVerifiableCredential for vc+jwt instances).' })
  verifiableCredential!: Record<string, unknown>;
}

@ObjectType({ description: 'REST: the answer of POST /vc-api/credentials/derive.' })
export class VcDeriveResult {
  @Field(() => GraphQLJSONObject, { description: 'The derived credential: mandatory and selected claims only, with a derived bbs-2023 proof.' })
  verifiableCredential!: Record<string, unknown>;
}

@ObjectType({ description: 'One problem of a verification (RFC 9457 members).' })
export class VcProblemDetail {
  @Field(() => String, { description: 'A URL of the specification that defines the problem, or a urn:credgate:vc-api: name.' })
  type!: string;

  @Field(() => String)
  title!: string;

  @Field(() => String, { nullable: true })
  detail!: string | null;
}

@ObjectType({ description: 'REST: the VC-API verification result. A credential that does not verify is an answer here (verified false); REST answers 422.' })
export class VcVerificationResult {
  @Field(() => Boolean)
  verified!: boolean;

  @Field(() => [String], { description: 'What was checked: proof, holder, challenge, domain, validity, credentialStatus, credentials.' })
  checks!: string[];

  @Field(() => [VcProblemDetail])
  warnings!: VcProblemDetail[];

  @Field(() => [VcProblemDetail])
  errors!: VcProblemDetail[];
}

@ObjectType({ description: 'REST: the answer of POST /vc-api/credentials/status.' })
export class VcStatusUpdate {
  @Field(() => String)
  credentialId!: string;

  @Field(() => GraphQLJSONObject, { description: 'The BitstringStatusListEntry whose bit changed (or already had the value).' })
  credentialStatus!: Record<string, unknown>;

  @Field(() => Boolean, { description: 'The status now: true = revoked / suspended.' })
  status!: boolean;
}
