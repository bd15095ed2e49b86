import { Field, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@ObjectType()
export class DidResolutionMetadata {
  @Field(() => String, { nullable: true })
  contentType?: string;

  @Field(() => String, { nullable: true, description: 'invalidDid, notFound or methodNotSupported.' })
  error?: string;

  @Field(() => String, { nullable: true })
  message?: string;
}

@ObjectType()
export class DidDocumentMetadata {
  @Field(() => String, { nullable: true })
  created?: string;

  @Field(() => String, { nullable: true })
  updated?: string;

  @Field(() => Boolean, { nullable: true })
  deactivated?: boolean;

  @Field(() => String, { nullable: true })
  versionId?: string;
}

@ObjectType({ description: 'A W3C DID Resolution result (REST: GET /1.0/identifiers/{did}).' })
export class DidResolutionResult {
  @Field(() => GraphQLJSONObject, { nullable: true })
  didDocument!: Record<string, unknown> | null;

  @Field(() => DidResolutionMetadata)
  didResolutionMetadata!: DidResolutionMetadata;

  @Field(() => DidDocumentMetadata)
  didDocumentMetadata!: DidDocumentMetadata;
}
