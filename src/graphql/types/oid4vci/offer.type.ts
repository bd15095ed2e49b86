import { Field, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@ObjectType({ description: 'An OpenID4VCI credential offer (REST: GET /oid4vci/offers/{offerId}).' })
export class CredentialOffer {
  @Field(() => String)
  id!: string;

  @Field(() => String, { description: 'offered, token-issued, credential-issued, accepted, failed or revoked.' })
  status!: string;

  @Field(() => [String])
  credentialConfigurationIds!: readonly string[];

  @Field(() => Boolean)
  txCodeRequired!: boolean;

  @Field(() => Boolean, { description: 'Locked after too many wrong transaction codes.' })
  locked!: boolean;

  @Field(() => Boolean)
  deferred!: boolean;

  @Field(() => Boolean)
  ready!: boolean;

  @Field(() => String)
  expiresAt!: string;

  @Field(() => String)
  createdAt!: string;

  @Field(() => String)
  updatedAt!: string;

  @Field(() => String, { nullable: true })
  revokedAt!: string | null;
}

@ObjectType({ description: 'A new offer with its one-time secrets (REST: the 201 of POST /oid4vci/offers).' })
export class CreatedCredentialOffer extends CredentialOffer {
  @Field(() => [String])
  grants!: readonly string[];

  @Field(() => String, { description: 'openid-credential-offer://?credential_offer=… or ?credential_offer_uri=…' })
  offerUri!: string;

  @Field(() => GraphQLJSONObject)
  credentialOffer!: Record<string, unknown>;

  @Field(() => String, { nullable: true })
  credentialOfferUri!: string | null;

  @Field(() => String, { nullable: true, description: 'The transaction code for the user (shown only here).' })
  txCode!: string | null;

  @Field(() => String, { description: 'The offer link as an SVG QR code.' })
  qrSvg!: string;

  @Field(() => String, { description: 'The offer link as a PNG QR code (data: URL).' })
  qrPng!: string;
}

@ObjectType({ description: 'One page of offers, newest first (REST: GET /oid4vci/offers).' })
export class CredentialOfferPage {
  @Field(() => [CredentialOffer])
  items!: CredentialOffer[];

  @Field(() => Boolean)
  hasMore!: boolean;

  @Field(() => String, { nullable: true })
  next!: string | null;
}

@ObjectType({ description: 'A credential a wallet received under an OpenID4VCI offer (REST: GET /oid4vci/offers/{offerId}/credentials).' })
export class IssuedOid4vciCredential {
  @Field(() => String, { description: 'The credential record id: revokeTemplateCredential (REST: DELETE /credentials/{id}) revokes this credential alone.' })
  id!: string;

  @Field(() => String)
  offerId!: string;

  @Field(() => String)
  configurationId!: string;

  @Field(() => String, { description: 'The OpenID4VCI format it was issued in (dc+sd-jwt, mso_mdoc, …).' })
  format!: string;

  @Field(() => String, { description: 'issued or revoked.' })
  status!: string;

  @Field(() => String)
  issuedAt!: string;

  @Field(() => String, { nullable: true })
  revokedAt!: string | null;
}
