import { Field, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A credential configuration the tenant can offer (REST: GET /wallets/api/configurations).' })
export class OfferableConfiguration {
  @Field(() => String, { description: 'The id createCredentialOffer takes.' }) id!: string;
  @Field(() => String) format!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true, description: 'dc+sd-jwt: the type a DCQL query asks for.' }) vct!: string | null;
  @Field(() => String, { nullable: true, description: 'mso_mdoc: the doctype.' }) doctype!: string | null;
  @Field(() => [[String]], { description: 'Claim paths, as DCQL names them.' }) claims!: string[][];
}

@ObjectType({ description: "The caller's tenant's credential issuer and its configurations (REST: GET /wallets/api/configurations)." })
export class OfferableConfigurations {
  @Field(() => String) credentialIssuer!: string;
  @Field(() => [OfferableConfiguration]) configurations!: OfferableConfiguration[];
}

@ObjectType({ description: "A presentation request's link as QR codes (REST: GET /wallets/api/presentation-requests/{id}/qr)." })
export class PresentationRequestQr {
  @Field(() => String, { description: 'The openid4vp:// link.' }) authorizationRequest!: string;
  @Field(() => String, { description: 'SVG document.' }) qrSvg!: string;
  @Field(() => String, { description: 'PNG as a data: URL.' }) qrPng!: string;
}
