import { Field, InputType, Int } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@InputType({ description: 'REST: the body of POST /oid4vci/offers.' })
export class CreateCredentialOfferInput {
  @Field(() => [String], { description: 'Credential configuration ids from the issuer metadata (1 to 20).' })
  credentialConfigurationIds!: string[];

  @Field(() => GraphQLJSONObject, { description: 'The subject claims of the credential.' })
  claims!: Record<string, unknown>;

  @Field(() => [String], { nullable: true, description: 'pre-authorized_code and/or authorization_code; default: pre-authorized_code.' })
  grants?: string[] | null;

  @Field(() => Int, { nullable: true, description: 'Ask for a numeric transaction code of this length (4-12; pre-authorized only).' })
  txCodeLength?: number | null;

  @Field(() => Boolean, { nullable: true, description: 'Link with credential_offer_uri instead of the offer itself.' })
  byReference?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'Issue later: the wallet gets a transaction_id until the offer is marked ready.' })
  deferred?: boolean | null;

  @Field(() => Int, { nullable: true, description: '60 s to 90 days; default CREDGATE_OID4VCI_OFFER_TTL_SECONDS.' })
  expiresInSeconds?: number | null;
}
