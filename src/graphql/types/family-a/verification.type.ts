import { Field, Float, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { ZkpStatement } from './zkp.type';

@ObjectType({ description: 'The decision of a biometric check: no distance or score is ever returned.' })
export class BiometricDecision {
  @Field(() => Boolean, { description: 'euclidean distance between descriptors <= threshold.' })
  match!: boolean;

  @Field(() => Float, { description: 'The configured threshold (CREDGATE_FACE_THRESHOLD), not a measurement.' })
  threshold!: number;
}

@ObjectType()
export class VerificationData {
  @Field(() => String, { description: '`Success` or `Failed: <reasons>`.' })
  isVCValid!: string;

  @Field(() => String, { description: '`Success` or `Failed: <reasons>`.' })
  isIssuerDIDValid!: string;

  @Field(() => String, { description: '`No Check Performed`, `Match`, `No Match`, `Not Checked` (credential or holder did not verify) or `Failed: <why>`.' })
  biometricMatchScore!: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'The verified ZKP certificate, when zkpValidation.' })
  zkpMessage!: Record<string, boolean> | null;

  @Field(() => Boolean, { nullable: true, description: 'With zkpValidation and a valid certificate: whether every proven condition holds; else null.' })
  zkpConditionsMet!: boolean | null;

  @Field(() => ZkpStatement, { nullable: true, description: 'With zkpValidation and a valid certificate: exactly what it proves.' })
  zkpResult!: ZkpStatement | null;

  @Field(() => BiometricDecision, { nullable: true, description: 'When a biometric check ran: match or no match.' })
  biometricMatch?: BiometricDecision;

  @Field(() => String, { description: 'CHALLENGE_BOUND (fresh signature over the verifier nonce), STATIC_REPLAYABLE (only the issuance-time userSignature) or NONE.' })
  holderProof!: string;

  @Field(() => [String], { description: 'Every failed check, in words; empty when valid.' })
  reasons!: string[];

  @Field(() => String, { nullable: true, description: 'With a bbs-bulletproofs certificate: bbs-bulletproofs.' })
  proofSystem?: string;
}

@ObjectType({ description: 'REST: the answer of POST /verifier/verify. An invalid credential is an answer, not an error.' })
export class VerificationPayload {
  @Field(() => Boolean)
  success!: boolean;

  @Field(() => String)
  message!: string;

  @Field(() => VerificationData)
  data!: VerificationData;
}
