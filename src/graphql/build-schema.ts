import 'reflect-metadata';
import { type GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { type ContainerType, buildSchemaSync } from 'type-graphql';
import { authChecker } from './auth-checker';
import { DidsResolver } from './resolvers/dids.resolver';
import { KeysResolver } from './resolvers/keys.resolver';
import { HolderResolver } from './resolvers/family-a/holder.resolver';
import { IssuerResolver } from './resolvers/family-a/issuer.resolver';
import { SchemasResolver } from './resolvers/family-a/schemas.resolver';
import { VerifierResolver } from './resolvers/family-a/verifier.resolver';

export const RESOLVERS = [KeysResolver, DidsResolver, IssuerResolver, SchemasResolver, HolderResolver, VerifierResolver] as const;

/** Resolver instances come from the composition root; printing the schema needs none. */
const noContainer: ContainerType = {
  get: () => {
    throw new Error('schema built without a resolver container');
  },
};

export function buildGraphqlSchema(container: ContainerType = noContainer): GraphQLSchema {
  return buildSchemaSync({ resolvers: RESOLVERS, authChecker, container, validate: false });
}

/** The committed schema.graphql text: sorted so the file only changes when the API does. */
export function printGraphqlSchema(schema: GraphQLSchema = buildGraphqlSchema()): string {
  return printSchema(lexicographicSortSchema(schema)) + '\n';
}
