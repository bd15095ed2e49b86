import { Field, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@ObjectType({ description: 'One proven predicate; fields that do not apply to its operator are null.' })
export class ZkpPredicate {
  @Field(() => String, { description: 'The certificate key: the attribute, or `attribute=value` for verifyParams.' })
  key!: string;

  @Field(() => String)
  attribute!: string;

  @Field(() => String, { description: '`range` (minimum <= value <= maximum), `periodBefore` (date at least value unit before evaluatedAt) or `equals`.' })
  operator!: string;

  @Field(() => String, { nullable: true, description: 'range: inclusive lower bound (digits).' })
  minimum!: string | null;

  @Field(() => String, { nullable: true, description: 'range: inclusive upper bound (digits).' })
  maximum!: string | null;

  @Field(() => Int, { nullable: true, description: 'periodBefore: the period length.' })
  value!: number | null;

  @Field(() => String, { nullable: true, description: 'periodBefore: years, months or days.' })
  unit!: string | null;

  @Field(() => String, { nullable: true, description: 'equals: the compared value.' })
  equals!: string | null;

  @Field(() => Boolean)
  met!: boolean;
}

@ObjectType({ description: "What a ZKP certificate proves, signed whole by the credential issuer's key." })
export class ZkpStatement {
  @Field(() => String)
  credentialId!: string;

  @Field(() => String, { description: "The credential's issuer DID." })
  issuer!: string;

  @Field(() => String, { description: 'ISO 8601 UTC instant of evaluation.' })
  evaluatedAt!: string;

  @Field(() => [ZkpPredicate])
  predicates!: ZkpPredicate[];
}

@ObjectType({ description: 'REST: the answer of POST /issuer/createZkp. A signed predicate attestation by the issuer.' })
export class ZkpCertificatePayload {
  @Field(() => GraphQLJSONObject, { description: 'attribute/condition → outcome (booleans).' })
  certificate!: Record<string, unknown>;

  @Field(() => String, { description: "The issuer's Ed25519 signature over the statement, hex (zkpSignature when verifying)." })
  userSignature!: string;

  @Field(() => ZkpStatement, { nullable: true, description: 'What is proven (attestation; null for bbs-bulletproofs, see zkStatement). The service keeps it under userSignature, so sending it back as zkpCertificate.statement is optional.' })
  statement!: ZkpStatement | null;

  @Field(() => String, { description: 'attestation or bbs-bulletproofs.' })
  proofSystem!: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'bbs-bulletproofs: the public statement of the proof (issuer, attribute names, conditions, time, verifier challenge).' })
  zkStatement!: Record<string, unknown> | null;

  @Field(() => String, { description: "The issuer's Ed25519 public key, base64." })
  publicKey!: string;
}
