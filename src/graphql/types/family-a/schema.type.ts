import { Field, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@ObjectType()
export class SchemaCreatedMessage {
  @Field(() => String, { description: 'Always `create`.' })
  operation!: string;

  @Field(() => String, { description: "`<name>:<version>` (the spelling is the interface's)." })
  versionContol!: string;

  @Field(() => String, { description: 'The schema document, JSON in base64.' })
  schemaDocumentBase64!: string;

  @Field(() => String)
  timestamp!: string;
}

@ObjectType({ description: 'REST: the answer of POST /issuer/createSchema.' })
export class SchemaCreatedPayload {
  @Field(() => String, { description: '`<name>:<version>`.' })
  name!: string;

  @Field(() => SchemaCreatedMessage)
  message!: SchemaCreatedMessage;
}

@ObjectType({ description: 'A versioned Family A schema (REST: interface reference 2.2).' })
export class CredentialSchema {
  @Field(() => String, { description: '`<name>:<version>`.' })
  name!: string;

  @Field(() => GraphQLJSONObject, { description: 'The schema document.' })
  body!: Record<string, unknown>;

  @Field(() => String)
  timestamp!: string;
}
