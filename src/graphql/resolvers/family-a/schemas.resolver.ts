import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { type SchemasService, toSchemaView } from '../../../services/family-a/schemas.service';
import type { GraphQLContext } from '../../context';
import type { CreateSchemaInput as CreateSchemaRequest } from '../../../contracts/family-a/schemas';
import { CreateSchemaInput } from '../../types/family-a/schema.input';
import { CredentialSchema, SchemaCreatedPayload } from '../../types/family-a/schema.type';

/** The REST body of POST /issuer/createSchema, leaving out what the caller did not give. */
function toRequestBody(input: CreateSchemaInput): CreateSchemaRequest {
  return {
    schemaName: input.schemaName,
    description: input.description,
    attributes: input.attributes.map((a) => ({
      attributeName: a.attributeName,
      type: a.type,
      description: a.description,
      required: a.required,
      ...(a.maxLength != null ? { maxLength: a.maxLength } : {}),
    })),
    expiration: { value: input.expiration.value, unit: input.expiration.unit },
    ...(input.dependantSchemas != null ? { dependantSchemas: input.dependantSchemas } : {}),
  };
}

/** Family A schemas, versioned per tenant. */
@Resolver()
export class SchemasResolver {
  constructor(private readonly schemaService: SchemasService) {}

  @Authorized('issuer')
  @Mutation(() => SchemaCreatedPayload, { description: 'REST: POST /issuer/createSchema. Creates the next version of the schema.' })
  createSchema(@Arg('input', () => CreateSchemaInput) input: CreateSchemaInput, @Ctx() ctx: GraphQLContext): Promise<SchemaCreatedPayload> {
    return this.schemaService.create(ctx.actor, toRequestBody(input));
  }

  @Authorized('issuer')
  @Query(() => [CredentialSchema], { description: "REST: GET /issuer/schemas. The tenant's schemas, every version." })
  async schemas(@Ctx() ctx: GraphQLContext): Promise<CredentialSchema[]> {
    return (await this.schemaService.list(ctx.actor)).map((v) => ({ ...v }));
  }

  @Authorized('issuer')
  @Query(() => CredentialSchema, { description: 'REST: GET /issuer/schema/{name}. `<name>` is the latest version, `<name>:<version>` an exact one.' })
  async schema(@Arg('name', () => String) name: string, @Ctx() ctx: GraphQLContext): Promise<CredentialSchema> {
    return toSchemaView(await this.schemaService.get(ctx.actor, name));
  }
}
