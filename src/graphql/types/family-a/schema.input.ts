import { Field, InputType, Int } from 'type-graphql';

@InputType({ description: 'One attribute of a Family A schema (REST: an item of `attributes`).' })
export class SchemaAttributeInput {
  @Field(() => String)
  attributeName!: string;

  @Field(() => String, { description: 'An attribute type of the interface (e.g. string, number, date).' })
  type!: string;

  @Field(() => String)
  description!: string;

  @Field(() => Boolean)
  required!: boolean;

  @Field(() => String, { nullable: true, description: 'Digits, string types only; omit for no limit.' })
  maxLength?: string;
}

@InputType({ description: 'How long credentials of the schema stay valid.' })
export class ExpirationInput {
  @Field(() => Int)
  value!: number;

  @Field(() => String, { description: 'A calendar unit (e.g. days, months, years).' })
  unit!: string;
}

@InputType({ description: 'REST: the body of POST /issuer/createSchema.' })
export class CreateSchemaInput {
  @Field(() => String)
  schemaName!: string;

  @Field(() => String)
  description!: string;

  @Field(() => [SchemaAttributeInput])
  attributes!: SchemaAttributeInput[];

  @Field(() => ExpirationInput)
  expiration!: ExpirationInput;

  @Field(() => [String], { nullable: true, description: 'Schema names, optionally pinned (`name:3`).' })
  dependantSchemas?: string[];
}
