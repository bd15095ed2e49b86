import { Field, InputType, Int } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@InputType({ description: 'REST: the body of POST /oid4vp/requests.' })
export class CreatePresentationRequestInput {
  @Field(() => GraphQLJSONObject, { description: 'The DCQL query (OID4VP 1.0 §6): dc+sd-jwt and mso_mdoc credential queries.' })
  dcqlQuery!: Record<string, unknown>;

  @Field(() => String, { nullable: true, description: 'direct_post.jwt (default, encrypted) or direct_post.' })
  responseMode?: string | null;

  @Field(() => String, { nullable: true, description: 'x509_san_dns (default), x509_hash or redirect_uri.' })
  clientIdPrefix?: string | null;

  @Field(() => String, { nullable: true, description: 'https URL the result is POSTed to (X-Credgate-Signature: sha256=<hex HMAC>).' })
  webhookUrl?: string | null;

  @Field(() => Int, { nullable: true, description: '30 to 3600; default 300.' })
  expiresInSeconds?: number | null;
}
