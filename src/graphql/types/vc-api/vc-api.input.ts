import { Field, InputType } from 'type-graphql';
import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';

@InputType({ description: 'REST: the body of POST /vc-api/issuers.' })
export class VcCreateIssuerInput {
  @Field(() => String, { description: 'eddsa-rdfc-2022, eddsa-jcs-2022, ecdsa-rdfc-2019, Ed25519Signature2020 or vc+jwt.' })
  cryptosuite!: string;

  @Field(() => String, { nullable: true, description: 'Ed25519, P-256 or P-384; default: the first the suite signs with.' })
  keyType?: string | null;
}

@InputType({ description: 'REST: the body of POST /vc-api/credentials/issue (or of an instance issue endpoint, with issuerId).' })
export class VcIssueCredentialInput {
  @Field(() => GraphQLJSONObject, { description: 'The unsecured credential (VCDM 1.1 or 2.0); `issuer` is set to the instance DID.' })
  credential!: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'created, challenge, domain, credentialId, credentialStatus (see docs/API.md).' })
  options?: Record<string, unknown> | null;

  @Field(() => String, { nullable: true, description: 'An issuer instance of the tenant; default: the tenant default instance.' })
  issuerId?: string | null;
}

@InputType({ description: 'REST: the body of POST /vc-api/credentials/verify.' })
export class VcVerifyCredentialInput {
  @Field(() => GraphQLJSON, { description: 'A credential object, an EnvelopedVerifiableCredential, or a compact JWT.' })
  verifiableCredential!: unknown;

  @Field(() => GraphQLJSONObject, { nullable: true })
  options?: Record<string, unknown> | null;
}

@InputType({ description: 'REST: the body of POST /vc-api/presentations/verify: verifiablePresentation, or presentation (verified without a proof).' })
export class VcVerifyPresentationInput {
  @Field(() => GraphQLJSON, { nullable: true })
  verifiablePresentation?: unknown;

  @Field(() => GraphQLJSONObject, { nullable: true })
  presentation?: Record<string, unknown> | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'challenge, domain.' })
  options?: Record<string, unknown> | null;
}

@InputType({ description: 'REST: the body of POST /vc-api/credentials/status, with credentialStatus flattened.' })
export class VcUpdateCredentialStatusInput {
  @Field(() => String)
  credentialId!: string;

  @Field(() => String, { description: 'revocation or suspension.' })
  statusPurpose!: string;

  @Field(() => Boolean, { description: 'true sets the status; false clears it (suspension only).' })
  status!: boolean;
}

@InputType({ description: 'REST: the body of POST /vc-api/credentials/derive.' })
export class VcDeriveCredentialInput {
  @Field(() => GraphQLJSONObject, { description: 'The credential as issued with bbs-2023 (its base proof).' })
  verifiableCredential!: Record<string, unknown>;

  @Field(() => [String], { nullable: true, description: "JSON pointers of the claims to disclose, besides the issuer's mandatory ones." })
  selectivePointers?: string[] | null;
}
