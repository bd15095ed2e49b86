import 'reflect-metadata';
import { type GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { type ContainerType, type MiddlewareFn, buildSchemaSync } from 'type-graphql';
import { authChecker } from './auth-checker';
import type { GraphQLContext } from './context';
import { DidsResolver } from './resolvers/dids.resolver';
import { KeysResolver } from './resolvers/keys.resolver';
import { LedgerResolver } from './resolvers/ledger.resolver';
import { FacesResolver } from './resolvers/family-a/faces.resolver';
import { HolderResolver } from './resolvers/family-a/holder.resolver';
import { IssuerResolver } from './resolvers/family-a/issuer.resolver';
import { SchemasResolver } from './resolvers/family-a/schemas.resolver';
import { VerifierResolver } from './resolvers/family-a/verifier.resolver';
import { PresentationsResolver } from './resolvers/family-b/presentations.resolver';
import { SignaturesResolver } from './resolvers/family-b/signatures.resolver';
import { TemplateCredentialsResolver } from './resolvers/family-b/template-credentials.resolver';
import { TemplatesResolver } from './resolvers/family-b/templates.resolver';
import { ZkpTokensResolver } from './resolvers/family-b/zkp-tokens.resolver';
import { VcApiResolver } from './resolvers/vc-api/vc-api.resolver';
import { Oid4vpResolver } from './resolvers/oid4vp/oid4vp.resolver';
import { Oid4vciOffersResolver } from './resolvers/oid4vci/offers.resolver';
import { WalletConsoleResolver } from './resolvers/wallet-console/wallet-console.resolver';

export const RESOLVERS = [KeysResolver, DidsResolver, IssuerResolver, SchemasResolver, HolderResolver, VerifierResolver, LedgerResolver, FacesResolver, TemplatesResolver, TemplateCredentialsResolver, PresentationsResolver, SignaturesResolver, ZkpTokensResolver, VcApiResolver, Oid4vpResolver, Oid4vciOffersResolver, WalletConsoleResolver] as const;

/** Resolver instances come from the composition root; printing the schema needs none. */
const noContainer: ContainerType = {
  get: () => {
    throw new Error('schema built without a resolver container');
  },
};

/** `middlewares` run around every field resolver (traffic control); they do not change the schema. */
export function buildGraphqlSchema(container: ContainerType = noContainer, middlewares: MiddlewareFn<GraphQLContext>[] = []): GraphQLSchema {
  return buildSchemaSync({ resolvers: RESOLVERS, authChecker, container, validate: false, globalMiddlewares: middlewares });
}

/** The committed schema.graphql text: sorted so the file only changes when the API does. */
export function printGraphqlSchema(schema: GraphQLSchema = buildGraphqlSchema()): string {
  return printSchema(lexicographicSortSchema(schema)) + '\n';
}
