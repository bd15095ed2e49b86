import { Field, Int, ObjectType } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';

@ObjectType({ description: 'A public key entry of a DID record document.' })
export class DidPublicKey {
  @Field(() => String)
  id!: string;

  @Field(() => String)
  type!: string;

  @Field(() => String)
  publicKeyHex!: string;

  @Field(() => String, { description: 'Sub-record id (`_id` in REST).' })
  recordId!: string;
}

@ObjectType({ description: 'The DID record document (REST: section 2.10 shape, with `_id` and `__v`).' })
export class DidRecordDocument {
  @Field(() => String, { nullable: true, description: 'Record id (`_id` in REST); null for computed did:key documents.' })
  recordId!: string | null;

  @Field(() => String, { description: 'The DID; stored documents carry the ledger file id as a last segment.' })
  id!: string;

  @Field(() => String, { nullable: true, description: 'Null for computed did:key documents (REST leaves it out).' })
  topicId!: string | null;

  @Field(() => String, { nullable: true, description: 'Null for computed did:key documents (REST leaves it out).' })
  templateTopicId!: string | null;

  @Field(() => [DidPublicKey])
  publicKeys!: DidPublicKey[];

  @Field(() => [String])
  authentication!: string[];

  @Field(() => [GraphQLJSON])
  service!: unknown[];

  @Field(() => String, { nullable: true, description: 'Null for computed did:key documents (REST leaves it out).' })
  created!: string | null;

  @Field(() => String, { nullable: true, description: 'Null for computed did:key documents (REST leaves it out).' })
  updated!: string | null;

  @Field(() => String, { nullable: true, description: 'Null for computed did:key documents (REST leaves it out).' })
  ledgerFileId!: string | null;

  @Field(() => Int, { description: 'Record version (`__v` in REST).' })
  version!: number;
}

@ObjectType()
export class CreateDidPayload {
  @Field(() => DidRecordDocument)
  document!: DidRecordDocument;

  @Field(() => Boolean, { description: 'False when the tenant had already registered this key (REST answers 200 instead of 201).' })
  created!: boolean;
}
