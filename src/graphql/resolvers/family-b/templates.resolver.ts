import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { TemplateDocument, TemplatesService } from '../../../services/family-b/templates.service';
import type { GraphQLContext } from '../../context';
import { VcTemplateInput } from '../../types/family-b/template.input';
import { VcTemplate, VcTemplateConnection } from '../../types/family-b/template.type';
import type { TemplateInput } from '../../../contracts/family-b/templates';

/** The REST body of POST/PUT /vc-templates, leaving out what the caller did not give. */
function toRequestBody(input: VcTemplateInput): TemplateInput {
  return {
    templateName: input.templateName,
    description: input.description,
    issuer: input.issuer,
    attributes: input.attributes.map((a) => ({
      attributeName: a.attributeName,
      type: a.type,
      description: a.description,
      ...(a.required != null ? { required: a.required } : {}),
    })),
    expiration: { value: input.expiration.value, unit: input.expiration.unit },
    ...(input.proofSuite != null ? { proofSuite: input.proofSuite } : {}),
  };
}

/** GraphQL names cannot start with `__`, so `_id`/`__v` become `recordId`/`version`. */
function toGraphql(d: TemplateDocument): VcTemplate {
  return {
    recordId: d._id,
    templateId: d.templateId,
    name: d.name,
    description: d.description,
    context: [...d.context],
    type: [...d.type],
    issuer: d.issuer,
    issuanceDate: d.issuanceDate,
    expirationDate: d.expirationDate,
    credentialSubject: d.credentialSubject.map((a) => ({ attributeName: a.attributeName, type: a.type, description: a.description })),
    proofSuite: d.proofSuite ?? null,
    version: d.__v,
  };
}

/** Family B credential templates; every version is anchored in the issuer's template log. */
@Resolver()
export class TemplatesResolver {
  constructor(private readonly templates: TemplatesService) {}

  @Authorized('issuer')
  @Mutation(() => VcTemplate, { description: 'REST: POST /vc-templates.' })
  async createVcTemplate(@Arg('input', () => VcTemplateInput) input: VcTemplateInput, @Ctx() ctx: GraphQLContext): Promise<VcTemplate> {
    return toGraphql(await this.templates.create(ctx.actor, toRequestBody(input)));
  }

  @Authorized('issuer')
  @Query(() => VcTemplateConnection, { description: 'REST: GET /vc-templates?first=&after= (object form { items, hasMore, next, total }; the bare GET answers an array of at most 500 with X-Total-Count and X-Has-More). first is 1-500; after is the templateId (cursor) of the last template seen; follow pageInfo.endCursor while hasNextPage.' })
  async vcTemplates(
    @Arg('first', () => Int, { nullable: true, defaultValue: 100 }) first: number | null,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<VcTemplateConnection> {
    const page = await this.templates.list(ctx.actor, { ...(first != null ? { first } : {}), ...(after != null ? { after } : {}) });
    const edges = page.items.map((d) => ({ cursor: d.templateId, node: toGraphql(d) }));
    return { edges, pageInfo: { hasNextPage: page.hasMore, endCursor: edges.at(-1)?.cursor ?? null }, totalCount: page.total };
  }

  @Authorized('issuer')
  @Query(() => VcTemplate, { description: 'REST: GET /vc-templates/{templateName}.' })
  async vcTemplate(@Arg('templateName', () => String) templateName: string, @Ctx() ctx: GraphQLContext): Promise<VcTemplate> {
    return toGraphql(await this.templates.getByName(ctx.actor, templateName));
  }

  @Authorized('issuer')
  @Mutation(() => VcTemplate, { description: 'REST: PUT /vc-templates/{templateId}. Anchors the next version.' })
  async updateVcTemplate(
    @Arg('templateId', () => String) templateId: string,
    @Arg('input', () => VcTemplateInput) input: VcTemplateInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<VcTemplate> {
    return toGraphql(await this.templates.update(ctx.actor, templateId, toRequestBody(input)));
  }

  @Authorized('issuer')
  @Mutation(() => Boolean, { description: 'REST: DELETE /vc-templates/{templateId}. True once deleted; an unknown template is NOT_FOUND.' })
  async deleteVcTemplate(@Arg('templateId', () => String) templateId: string, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    await this.templates.delete(ctx.actor, templateId);
    return true;
  }
}
