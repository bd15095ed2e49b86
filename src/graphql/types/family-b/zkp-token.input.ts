import { Field, InputType, Int } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@InputType({ description: 'The predicate: the subject is at least `age` full years old.' })
export class AgeConditionInput {
  @Field(() => Int)
  age!: number;
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
}

@InputType({ description: 'The zkpData createZkpToken returned, unchanged.' })
export class ZkpDataInput {
  @Field(() => AgeConditionInput)
  condition!: AgeConditionInput;

  @Field(() => Boolean)
  conditionMet!: boolean;

  @Field(() => Int)
  calculatedAge!: number;
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
}
