import { Type } from '@sinclair/typebox';
import { EXAMPLE, JsonObject, pathParam } from './common';
import { type Operation, operationGroup } from './operation';

/** Keyless routes: index, probes, this document, published documents; and the GraphQL endpoint. */
const op = operationGroup('service', 'Service');
const graphqlOp = operationGroup('service', 'GraphQL');
const publicOp = operationGroup('service', 'Published documents');
const Link = Type.Object({ href: Type.String(), title: Type.String() });

export const index = op('get', '/', 'index', {
  summary: 'Entry points (JSON, or HTML for browsers)',
  responses: {
    200: {
      description: 'the index',
      schema: Type.Object({ name: Type.String(), description: Type.String(), authentication: Type.String(), links: Type.Record(Type.String(), Link) }),
      example: {
        name: 'credgate',
        description: 'Credgate issues and verifies W3C-style verifiable credentials over GraphQL and REST.',
        authentication: 'API routes need an X-API-Key header; this index and the probes do not.',
        links: { openapi: { href: '/openapi.json', title: 'OpenAPI document' }, docs: { href: '/docs', title: 'API reference' } },
      },
    },
  },
});

export const healthz = op('get', '/healthz', 'healthz', {
  summary: 'Liveness probe',
  responses: { 200: { description: 'alive', schema: Type.Object({ status: Type.Literal('ok') }), example: { status: 'ok' } } },
});

const Ready = Type.Object({ status: Type.String(), database: Type.String() });
export const readyz = op('get', '/readyz', 'readyz', {
  summary: 'Readiness probe (database)',
  responses: {
    200: { description: 'ready', schema: Ready, example: { status: 'ok', database: 'ok' } },
    503: { description: 'the database is unreachable', schema: Ready, example: { status: 'unavailable', database: 'unreachable' } },
  },
});

export const openapiDocument = op('get', '/openapi.json', 'openapiDocument', {
  summary: 'This OpenAPI 3.1 document',
  responses: { 200: { description: 'the document', schema: JsonObject, example: { openapi: '3.1.0' } } },
});

export const apiDocs = op('get', '/docs', 'apiDocs', {
  summary: 'This reference as a page (Swagger UI, served offline; CREDGATE_API_DOCS=false removes it)',
  responses: { 200: { description: 'the page', contentType: 'text/html', schema: Type.String(), example: '<!doctype html>…' } },
});

const GraphqlRequest = Type.Object({ query: Type.String(), variables: Type.Optional(JsonObject), operationName: Type.Optional(Type.String()) });
const graphqlResponse = { 200: { description: 'a GraphQL response (errors in `errors`, GraphQL’s shape)', schema: JsonObject, example: { data: { __typename: 'Query' } } } };

export const graphqlPost = graphqlOp('post', '/graphql', 'graphqlPost', {
  summary: 'The GraphQL endpoint (schema: /graphql introspection or schema.graphql); the API key goes in X-API-Key',
  scopes: [],
  body: { schema: GraphqlRequest, example: { query: '{ __typename }' } },
  responses: graphqlResponse,
});

export const graphqlGet = graphqlOp('get', '/graphql', 'graphqlGet', {
  summary: 'GraphiQL for browsers (CREDGATE_GRAPHQL_PLAYGROUND), or a query in the URL',
  responses: { ...graphqlResponse, 200: { ...graphqlResponse[200], description: 'GraphiQL (text/html) or a GraphQL response' } },
});

export const statusList = publicOp('get', '/status/:listId', 'statusList', {
  summary: 'A W3C Bitstring Status List credential (referenced from credentialStatus; no API key)',
  pathParams: [pathParam('listId', 'the list id', EXAMPLE.uuid)],
  responses: { 200: { description: 'the signed status list credential', schema: JsonObject, example: { type: ['VerifiableCredential', 'BitstringStatusListCredential'], credentialSubject: { type: 'BitstringStatusList', encodedList: 'uH4sIAAAAAAAAA-3BMQEAAADCoPVPbQwfoAAAAAAAAAAAAAAAAAAAAIC3AYbSVKsAQAAA' } } } },
  errors: [404],
  rateLimited: true,
});

export const bbsStatusList = publicOp('get', '/status/:listId/bbs-2023', 'bbsStatusList', {
  summary: 'The same status list for bbs-2023 template credentials: issued by the issuer DID\'s BBS did:key, with a derived bbs-2023 proof (no API key)',
  pathParams: [pathParam('listId', 'the list id', EXAMPLE.uuid)],
  responses: { 200: { description: 'the status list credential (bbs-2023, derived proof disclosing everything)', schema: JsonObject, example: { type: ['VerifiableCredential', 'BitstringStatusListCredential'], issuer: 'did:key:zUC7...', credentialSubject: { type: 'BitstringStatusList', encodedList: 'uH4sIAAAAAAAAA-3BMQEAAADCoPVPbQwfoAAAAAAAAAAAAAAAAAAAAIC3AYbSVKsAQAAA' } } } },
  errors: [404],
  rateLimited: true,
});

export const tokenStatusList = publicOp('get', '/token-status-lists/:listId', 'tokenStatusList', {
  summary: 'An IETF Token Status List (statuslist+jwt; referenced from status.status_list of SD-JWT VCs; no API key)',
  description:
    'draft-ietf-oauth-status-list: signed by the issuer\'s OpenID4VC key, re-signed only when a bit changes (or half its validity has passed). `ETag` / `If-None-Match` (304); `Cache-Control: no-cache` so a revocation is seen at once.',
  pathParams: [pathParam('listId', 'the list id', EXAMPLE.uuid)],
  responses: {
    200: { description: 'the Status List Token', contentType: 'application/statuslist+jwt', schema: Type.String(), example: 'eyJ0eXAiOiJzdGF0dXNsaXN0K2p3dCIsImFsZyI6IkVTMjU2In0.eyJzdWIiOiIuLi4ifQ.c2ln', headers: ['ETag'] },
    304: { description: 'not modified since the ETag given in If-None-Match' },
  },
  errors: [404],
  rateLimited: true,
});

const version = { name: 'version', description: 'a version number (default: the latest)', example: 1, schema: Type.Integer({ minimum: 1, maximum: 999_999_999 }) };
const schemaDoc = { $schema: 'http://json-schema.org/draft-04/schema#', title: 'EmployeeBadge', type: 'object', properties: {}, required: [] };

export const publicTenantSchema = publicOp('get', '/t/:tenant/schema/:name', 'publicTenantSchema', {
  summary: 'A tenant’s published Family A schema (credentialSchema.id; no API key)',
  pathParams: [pathParam('tenant', 'the tenant', 'acme'), pathParam('name', 'name or name:version', 'EmployeeBadge:1')],
  query: [version],
  responses: { 200: { description: 'the schema document', schema: JsonObject, example: schemaDoc } },
  errors: [404],
  rateLimited: true,
});

export const publicSchema: Operation = {
  ...publicTenantSchema,
  id: 'publicSchema',
  paths: ['/schema/:name'],
  summary: 'A published Family A schema of the default tenant (no API key)',
  pathParams: [pathParam('name', 'name or name:version', 'EmployeeBadge:1')],
};
