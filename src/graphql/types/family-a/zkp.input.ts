import { Field, InputType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { VerifierChallengeInput } from '../family-b/zkp-token.input';

@InputType({ description: 'REST: the body of POST /issuer/createZkp, with the conditions gathered in one object.' })
export class CreateZkpInput {
  @Field(() => GraphQLJSONObject, { description: 'The credential (an object with its id).' })
  credentials!: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, { description: 'attribute → condition, as the top-level REST keys.' })
  conditions!: Record<string, unknown>;

  @Field(() => [String], { nullable: true, description: '`attribute=value` strings.' })
  verifyParams?: string[];

  @Field(() => String, { nullable: true, description: 'attestation (default) or bbs-bulletproofs (a zero-knowledge proof of the conditions; needs verifierChallenge).' })
  proofSystem?: string;

  @Field(() => VerifierChallengeInput, { nullable: true })
  verifierChallenge?: VerifierChallengeInput;
}
