import { Field, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@ObjectType({ description: 'REST: GET /oid4vp/requests/{id}.' })
export class PresentationRequest {
  @Field(() => String) id!: string;
  @Field(() => String, { description: 'pending, verified or failed.' }) status!: string;
  @Field(() => String) clientId!: string;
  @Field(() => String) clientIdPrefix!: string;
  @Field(() => String) responseMode!: string;
  @Field(() => GraphQLJSONObject) dcqlQuery!: Record<string, unknown>;
  @Field(() => String, { description: 'The openid4vp:// link (QR code content) the wallet opens.' }) authorizationRequest!: string;
  @Field(() => String, { nullable: true }) requestUri!: string | null;
  @Field(() => String) responseUri!: string;
  @Field(() => String) expiresAt!: string;
  @Field(() => String) createdAt!: string;
  @Field(() => String, { nullable: true }) respondedAt!: string | null;
  @Field(() => String, { nullable: true }) webhookUrl!: string | null;
  @Field(() => String, { nullable: true }) webhookStatus!: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'verified, dcqlSatisfied, credentials (queryId, format, verified, type, issuer, claims, checks), problems, receivedAt.' })
  result!: Record<string, unknown> | null;
}

@ObjectType({ description: 'REST: the answer of POST /oid4vp/requests.' })
export class CreatedPresentationRequest extends PresentationRequest {
  @Field(() => String, { nullable: true, description: 'The webhook HMAC key; shown only here.' }) webhookSecret!: string | null;
}
