import { FaceMatchResult } from './face.type';
import { Field, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@ObjectType()
export class VerificationData {
  @Field(() => String, { description: '`Success` or `Failed: <reasons>`.' })
  isVCValid!: string;

  @Field(() => String, { description: '`Success` or `Failed: <reasons>`.' })
  isIssuerDIDValid!: string;

  @Field(() => String)
  biometricMatchScore!: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'The verified ZKP certificate, when zkpValidation.' })
  zkpMessage!: Record<string, boolean> | null;

  @Field(() => FaceMatchResult, { nullable: true, description: 'The numbers behind biometricMatchScore, when a probe was given.' })
  biometricMatch?: FaceMatchResult;

  @Field(() => [String], { description: 'Every failed check, in words; empty when valid.' })
  reasons!: string[];
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
