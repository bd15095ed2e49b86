import { Field, InputType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@InputType({ description: 'REST: the body of POST /credentials.' })
export class IssueTemplateCredentialInput {
  @Field(() => String, { description: 'A live template of the tenant (VcTemplate.templateId).' })
  templateId!: string;

  @Field(() => GraphQLJSONObject, { description: 'The attribute values, checked against the template; `id` may name the holder DID.' })
  credentialSubject!: Record<string, unknown>;

  @Field(() => String, { nullable: true, description: 'The holder DID; when credentialSubject.id is also given they must agree.' })
  holder?: string;
}
