import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'An attribute definition of a template (REST: an item of `credentialSubject`).' })
export class TemplateAttribute {
  @Field(() => String)
  attributeName!: string;

  @Field(() => String)
  type!: string;

  @Field(() => String)
  description!: string;
}

@ObjectType({ description: 'A Family B credential template (REST: interface reference 2.9, with `_id` and `__v`).' })
export class VcTemplate {
  @Field(() => String, { description: 'Record id (`_id` in REST).' })
  recordId!: string;

  @Field(() => String, { description: 'The stable template id, used to issue, update and delete.' })
  templateId!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  description!: string;

  @Field(() => [String], { description: 'JSON-LD contexts (`@context` of issued credentials).' })
  context!: string[];

  @Field(() => [String])
  type!: string[];

  @Field(() => String, { description: 'The issuer DID.' })
  issuer!: string;

  @Field(() => String)
  issuanceDate!: string;

  @Field(() => String)
  expirationDate!: string;

  @Field(() => [TemplateAttribute], { description: 'The attribute definitions.' })
  credentialSubject!: TemplateAttribute[];

  @Field(() => String, { nullable: true, description: 'bbs-2023 when its credentials are W3C Data Integrity BBS; null: Family B\'s EcdsaSecp256k1Signature2019 (REST: `proofSuite`, absent then).' })
  proofSuite!: string | null;

  @Field(() => Int, { description: 'Record version (`__v` in REST).' })
  version!: number;
}

@ObjectType({ description: 'One template of a VcTemplateConnection.' })
export class VcTemplateEdge {
  @Field(() => String, { description: 'The templateId of node; pass it as `after` to continue after it.' })
  cursor!: string;

  @Field(() => VcTemplate)
  node!: VcTemplate;
}

@ObjectType({ description: 'Relay-style page information.' })
export class PageInfo {
  @Field(() => Boolean)
  hasNextPage!: boolean;

  @Field(() => String, { nullable: true, description: 'The cursor of the last edge; null when the page is empty.' })
  endCursor!: string | null;
}

@ObjectType({ description: "REST: GET /vc-templates, paged. The tenant's live templates, oldest first." })
export class VcTemplateConnection {
  @Field(() => [VcTemplateEdge])
  edges!: VcTemplateEdge[];

  @Field(() => PageInfo)
  pageInfo!: PageInfo;

  @Field(() => Int, { description: 'All live templates of the tenant, across pages.' })
  totalCount!: number;
}
