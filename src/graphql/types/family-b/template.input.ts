import { Field, InputType, Int } from 'type-graphql';

@InputType({ description: 'One attribute of a Family B template (REST: an item of `attributes`).' })
export class TemplateAttributeInput {
  @Field(() => String)
  attributeName!: string;

  @Field(() => String, { description: 'An attribute type of the interface (e.g. string, number, date).' })
  type!: string;

  @Field(() => String)
  description!: string;

  @Field(() => Boolean, { nullable: true, description: 'Whether issuance must give the attribute; omitted means true.' })
  required?: boolean;
}

@InputType({ description: 'How long credentials of the template stay valid.' })
export class TemplateExpirationInput {
  @Field(() => Int)
  value!: number;

  @Field(() => String, { description: 'A calendar unit (e.g. days, months, years).' })
  unit!: string;
}

@InputType({ description: 'REST: the body of POST /vc-templates and PUT /vc-templates/{templateId}.' })
export class VcTemplateInput {
  @Field(() => String, { description: 'Letters, digits, space . _ - (1-128), starting with a letter or digit.' })
  templateName!: string;

  @Field(() => String)
  description!: string;

  @Field(() => String, { description: "One of the tenant's own service DIDs (createDid); it signs the template's credentials." })
  issuer!: string;

  @Field(() => [TemplateAttributeInput])
  attributes!: TemplateAttributeInput[];

  @Field(() => TemplateExpirationInput)
  expiration!: TemplateExpirationInput;

  @Field(() => String, { nullable: true, description: "The suite its credentials are signed with: EcdsaSecp256k1Signature2019 (Family B's, the default) or bbs-2023 (W3C Data Integrity BBS: the holder derives unlinkable presentations revealing chosen claims)." })
  proofSuite?: string | null;
}
