import { Field, ObjectType } from 'type-graphql';

@ObjectType({ description: 'REST: the answer of POST /verify-vp. An invalid presentation is an error (VERIFICATION_FAILED).' })
export class PresentationVerification {
  @Field(() => String)
  message!: string;
}
