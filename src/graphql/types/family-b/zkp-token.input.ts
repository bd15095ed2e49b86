import { Field, InputType, Int } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@InputType({ description: 'The predicate: the subject is at least `age` full years old.' })
export class AgeConditionInput {
  @Field(() => Int)
  age!: number;
}

@InputType({ description: 'Who a zero-knowledge proof is for: the verifier and its nonce (bound into the proof with the time).' })
export class VerifierChallengeInput {
  @Field(() => String)
  verifierId!: string;

  @Field(() => String, { description: '16-256 printable characters, fresh per request.' })
  nonce!: string;
}

@InputType({ description: 'REST: the body of POST /createZkpToken. Give credentialId or credential.' })
export class CreateZkpTokenInput {
  @Field(() => String, { nullable: true, description: 'Id of a credential the tenant issued.' })
  credentialId?: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'The credential (an object with its id).' })
  credential?: Record<string, unknown>;

  @Field(() => String, { nullable: true, description: 'The date attribute to evaluate; by default a birth-date-like date attribute of the template.' })
  attribute?: string;

  @Field(() => AgeConditionInput)
  condition!: AgeConditionInput;

  @Field(() => String, { nullable: true, description: 'attestation (default) or bbs-bulletproofs (a zero-knowledge proof; needs verifierChallenge).' })
  proofSystem?: string;

  @Field(() => VerifierChallengeInput, { nullable: true })
  verifierChallenge?: VerifierChallengeInput;

  @Field(() => Boolean, { nullable: true, description: 'bbs-bulletproofs: also prove a per-verifier pseudonym of the credential (stable for this verifier, unlinkable across verifiers).' })
  pseudonym?: boolean;
}

@InputType({ description: 'The zkpData createZkpToken returned, unchanged.' })
export class ZkpDataInput {
  @Field(() => AgeConditionInput)
  condition!: AgeConditionInput;

  @Field(() => Boolean)
  conditionMet!: boolean;

  @Field(() => Int, { nullable: true, description: 'Absent for a zero-knowledge token.' })
  calculatedAge?: number | null;
}

@InputType({ description: 'REST: the body of POST /verifyZkpToken.' })
export class VerifyZkpTokenInput {
  @Field(() => String)
  zkpToken!: string;

  @Field(() => ZkpDataInput)
  zkpData!: ZkpDataInput;

  @Field(() => String, { description: "The issuer's secp256k1 public key, hex." })
  publicKey!: string;

  @Field(() => String, { nullable: true, description: 'When given, the token must be about a credential of this holder DID.' })
  holderDID?: string;

  @Field(() => String, { nullable: true, description: 'attestation (default) or bbs-bulletproofs.' })
  proofSystem?: string;

  @Field(() => VerifierChallengeInput, { nullable: true, description: 'bbs-bulletproofs: the challenge this verifier issued.' })
  verifierChallenge?: VerifierChallengeInput;
}
