import { GraphQLJSON } from 'graphql-scalars';
import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'The predicate: the subject is at least `age` full years old.' })
export class AgeCondition {
  @Field(() => Int)
  age!: number;
}

@ObjectType({ description: 'The signed outcome of the condition (the birth date itself is not disclosed).' })
export class ZkpData {
  @Field(() => AgeCondition)
  condition!: AgeCondition;

  @Field(() => Boolean)
  conditionMet!: boolean;

  @Field(() => Int, { nullable: true, description: 'Null for a zero-knowledge token: the age is not disclosed.' })
  calculatedAge!: number | null;
}

@ObjectType({ description: "REST: the answer of POST /createZkpToken. A signed predicate attestation by the issuer, not a cryptographic zero-knowledge proof." })
export class ZkpTokenPayload {
  @Field(() => String, { description: "The signed token: hex of the UTF-8 of the canonical JSON { claims, sig }." })
  zkpToken!: string;

  @Field(() => ZkpData)
  zkpData!: ZkpData;

  @Field(() => String, { description: "The issuer's public key, hex: secp256k1 for an attestation, BBS (BLS12-381 G2) for bbs-bulletproofs." })
  publicKey!: string;

  @Field(() => String, { description: 'attestation or bbs-bulletproofs.' })
  proofSystem!: string;
}

@ObjectType({ description: 'REST: the answer of POST /verifyZkpToken. An invalid token is an error (VERIFICATION_FAILED).' })
export class ZkpTokenVerification {
  @Field(() => Boolean)
  success!: boolean;

  @Field(() => Boolean)
  conditionMet!: boolean;

  @Field(() => Int, { nullable: true, description: 'Null for a zero-knowledge token.' })
  calculatedAge!: number | null;

  @Field(() => String)
  message!: string;

  @Field(() => String, { description: "Who signed: the DID of the credential's issuer (checked against the credential, not just claimed)." })
  issuer!: string;

  @Field(() => String, { nullable: true, description: 'The credential the token is about; null for a zero-knowledge token, which does not say.' })
  credentialId!: string | null;

  @Field(() => String, { nullable: true, description: "The credential's holder DID (null when it has none)." })
  holder!: string | null;

  @Field(() => String, { description: 'When the condition was evaluated (RFC 3339).' })
  issuedAt!: string;

  @Field(() => String, { description: 'After this instant the token is refused (RFC 3339).' })
  expiresAt!: string;

  @Field(() => String, { description: 'attestation or bbs-bulletproofs.' })
  proofSystem!: string;

  @Field(() => String, { nullable: true, description: "bbs-bulletproofs with a pseudonym: the credential's proven pseudonym for this verifier (base64)." })
  pseudonym?: string | null;
}

@ObjectType({ description: "REST: GET /zk/issuer-key/{did}. An issuer's BBS public key, for verifying zero-knowledge proofs offline." })
export class ZkIssuerKey {
  @Field(() => String)
  issuer!: string;

  @Field(() => String, { description: 'Bls12381G2' })
  type!: string;

  @Field(() => String)
  publicKeyHex!: string;

  @Field(() => String)
  publicKeyBase64!: string;

  @Field(() => String)
  proofSystem!: string;
}

@ObjectType({ description: 'One signed attribute of a ZkHolderSignature.' })
export class ZkHolderAttribute {
  @Field(() => String)
  name!: string;

  @Field(() => String, { description: 'The template type (date, integer, string, ...).' })
  type!: string;

  @Field(() => GraphQLJSON, { nullable: true, description: 'The signed value (null when the credential does not have it).' })
  value!: unknown;
}

@ObjectType({ description: "REST: POST /zk/holder-signature. The issuer's BBS signature over the holder's own credential, valid through one UTC day: the SDK's ZkAgeCredential." })
export class ZkHolderSignature {
  @Field(() => String)
  issuer!: string;

  @Field(() => String, { description: 'BLS12-381 G2 public key, hex.' })
  issuerPublicKey!: string;

  @Field(() => String, { description: 'BBS signature, base64.' })
  signature!: string;

  @Field(() => String)
  credentialId!: string;

  @Field(() => Int, { description: 'The UTC day (days since 1970-01-01) through which it proves.' })
  validUntilDay!: number;

  @Field(() => [ZkHolderAttribute])
  attributes!: ZkHolderAttribute[];
}
