/**
 * Property: every query and mutation of the GraphQL schema (walked from the schema the server
 * serves, so new operations are fuzzed without editing this file), called with arguments that
 * are well-typed but hostile, wrongly typed, missing or deeply nested, never answers a 5xx or an
 * INTERNAL error, never crashes into the generic error path, and when it fails writes nothing.
 * Malformed documents and request shapes are thrown at /graphql too.
 */
import fc from 'fast-check';
import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  buildSchema,
  getNamedType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
} from 'graphql';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type TestServer, startTestServer } from '../support/harness';
import { request } from '../support/http';
import { crashLines, hostileJson, hostileString, hostileTransportHeaders, nested, rowCounts, stackTraceIn, tableNames } from './support';

jest.setTimeout(180_000);

let server: TestServer;
let tables: string[];
let adminKey: string;
/** An OAuth access token of the admin key, so hostile Authorization headers sit beside a real one. */
let adminToken: string;
const SEED = Number(process.env['PROPERTY_SEED'] ?? 20261123);
/** PROPERTY_RUNS multiplies every run count for a longer local search (default 1: CI-sized). */
const RUNS = Math.max(1, Number(process.env['PROPERTY_RUNS'] ?? 1));

// The schema the build emits from the resolvers (test/unit/generated-artifacts.test.ts keeps it current).
const schema = buildSchema(readFileSync(path.resolve(__dirname, '../../schema.graphql'), 'utf8'));

interface Operation {
  readonly kind: 'query' | 'mutation';
  readonly field: GraphQLField<unknown, unknown>;
}

/** Face uploads need multipart (REST's photo routes are fuzzed in rest-inputs); the rest are here. */
const takesUpload = (f: GraphQLField<unknown, unknown>) => f.args.some((a) => getNamedType(a.type).name === 'Upload');

const operations: Operation[] = (['query', 'mutation'] as const).flatMap((kind) => {
  const type = (kind === 'query' ? schema.getQueryType() : schema.getMutationType()) as GraphQLObjectType;
  return Object.values(type.getFields())
    .filter((f) => !takesUpload(f))
    .map((field) => ({ kind, field }));
});

/** A value of `type`: usually well-typed with hostile content, sometimes wrong on purpose. */
function valueOf(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
  const wrong = fc.oneof(hostileJson, fc.constant(null), fc.constantFrom(nested(200, 'array'), nested(200, 'object')));
  if (isNonNullType(type)) return fc.oneof({ weight: 9, arbitrary: valueOf(type.ofType, depth) }, { weight: 1, arbitrary: wrong });
  if (isListType(type)) return fc.array(valueOf(type.ofType, depth + 1), { maxLength: depth > 2 ? 1 : 4 });
  if (isEnumType(type)) return fc.oneof(fc.constantFrom(...type.getValues().map((v) => v.name)), hostileString);
  if (isInputObjectType(type)) {
    if (depth > 4) return fc.constant({});
    const fields = Object.values(type.getFields());
    return fc.record(Object.fromEntries(fields.map((f) => [f.name, valueOf(f.type, depth + 1)])), { requiredKeys: fields.filter((f) => isNonNullType(f.type)).map((f) => f.name) });
  }
  if (isScalarType(type)) {
    switch (type.name) {
      case 'String':
      case 'ID':
        return fc.oneof({ weight: 8, arbitrary: hostileString }, { weight: 1, arbitrary: wrong });
      case 'Int':
        return fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.constantFrom(2 ** 31, -1, 0, 1e12, 1.5), wrong);
      case 'Float':
        return fc.oneof(fc.double({ noNaN: true }), wrong);
      case 'Boolean':
        return fc.oneof(fc.boolean(), wrong);
      case 'JSONObject':
        return fc.oneof(fc.dictionary(fc.string({ maxLength: 12 }), hostileJson, { maxKeys: 6 }), fc.constant(nested(200, 'object')), wrong);
      default:
        return fc.oneof(hostileJson, wrong);
    }
  }
  return wrong;
}

/** `{ __typename }` is enough to select any object result: the resolver runs either way. */
const selection = (t: GraphQLOutputType): string => (isCompositeType(getNamedType(t)) ? ' { __typename }' : '');

function documentFor(op: Operation): string {
  const args = op.field.args;
  const vars = args.map((a: GraphQLArgument) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const call = args.length === 0 ? op.field.name : `${op.field.name}(${args.map((a) => `${a.name}: $${a.name}`).join(', ')})`;
  return `${op.kind} Fuzz${vars ? `(${vars})` : ''} { ${call}${selection(op.field.type)} }`;
}

const variablesOf = (op: Operation) => fc.record(Object.fromEntries(op.field.args.map((a) => [a.name, valueOf(a.type)])), { requiredKeys: [] });

/** Named by operation so a counterexample prints readably. */
const operationCall = fc.constantFrom(...operations).chain((op) => variablesOf(op).map((variables) => ({ name: op.field.name, document: documentFor(op), variables })));

interface GqlAnswer {
  status: number;
  errors: { message: string; extensions?: { code?: string } }[];
  text: string;
}

async function post(body: unknown, opts: { key?: string | undefined; raw?: string; contentType?: string; headers?: Record<string, string> } = {}): Promise<GqlAnswer> {
  const headers: Record<string, string> = { ...(opts.key !== undefined ? { 'x-api-key': opts.key } : {}), 'apollo-require-preflight': 'true', ...opts.headers };
  if (opts.contentType !== undefined) headers['content-type'] = opts.contentType;
  const res = await request(server.baseUrl, 'POST', '/graphql', { headers, ...(opts.raw !== undefined ? { raw: opts.raw } : { body }) });
  const errors = Array.isArray(res.json?.errors) ? res.json.errors : [];
  return { status: res.status, errors, text: res.text };
}

/** The three guarantees for one request. */
async function checked(what: string, send: () => Promise<GqlAnswer>): Promise<GqlAnswer> {
  const logFrom = server.logs.lines.length;
  const before = await rowCounts(server, tables);
  const res = await send();
  const failed = res.status >= 500 || res.errors.some((e) => e.extensions?.code === 'INTERNAL');
  if (failed) throw new Error(`server error for ${what}: ${res.status} ${res.text.slice(0, 400)}`);
  // Apollo puts `extensions.stacktrace` on errors when not told otherwise; answers never carry one.
  const trace = stackTraceIn(res.text) ?? (res.text.includes('"stacktrace"') ? 'stacktrace' : undefined);
  if (trace !== undefined) throw new Error(`stack trace in the answer (${trace}) for ${what}: ${res.text.slice(0, 400)}`);
  expect(crashLines(server, logFrom)).toEqual([]);
  if (res.status >= 400 || res.errors.length > 0) {
    const after = await rowCounts(server, tables);
    if (JSON.stringify(after) !== JSON.stringify(before)) throw new Error(`rejected request wrote rows: ${what} -> ${res.text.slice(0, 400)}\nbefore ${JSON.stringify(before)}\nafter  ${JSON.stringify(after)}`);
  }
  return res;
}

beforeAll(async () => {
  server = await startTestServer();
  tables = await tableNames(server);
  adminKey = await server.apiKey('prop-graphql', ['admin']);
  // First-use records (the tenant's Family A issuer DID) exist before any rejected request runs.
  expect((await post({ query: '{ issuerDid }' }, { key: adminKey })).errors).toEqual([]);
  const h = /^cgk_([0-9a-f]{32})_/.exec(adminKey)![1]!;
  const clientId = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  const token = await request(server.baseUrl, 'POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: clientId, client_secret: adminKey } });
  expect(token.status).toBe(200);
  adminToken = token.json.access_token as string;
});

afterAll(async () => {
  await server?.stop();
});

describe('GraphQL: hostile inputs never give a 5xx or INTERNAL, never crash, and failed requests write nothing', () => {
  test('the schema walk finds the operations of both families', () => {
    const names = operations.map((o) => o.field.name);
    for (const n of ['issueCredential', 'createPresentation', 'templateCredential', 'verifyPresentation', 'createVcTemplate', 'createDid']) expect(names).toContain(n);
    expect(operations.length).toBeGreaterThan(35);
  });

  test('every operation with generated variables (well-typed hostile values and wrong types)', async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(operationCall, async ({ name, document, variables }) => {
        seen.add(name);
        await checked(`${name} ${JSON.stringify(variables).slice(0, 300)}`, () => post({ query: document, variables }, { key: adminKey }));
      }),
      { numRuns: 200 * RUNS, seed: SEED, endOnFailure: true },
    );
    // Then each operation at least once, so none is left out by chance.
    for (const op of operations.filter((o) => !seen.has(o.field.name))) {
      const [variables] = fc.sample(variablesOf(op), { numRuns: 1 * RUNS, seed: SEED });
      await checked(`${op.field.name} ${JSON.stringify(variables).slice(0, 300)}`, () => post({ query: documentFor(op), variables }, { key: adminKey }));
    }
  });

  test('a NUL character in any string argument (variables or literals) is never INTERNAL', async () => {
    const nulOf = (type: GraphQLInputType): unknown => {
      if (isNonNullType(type)) return nulOf(type.ofType);
      if (isListType(type)) return [nulOf(type.ofType)];
      if (isInputObjectType(type)) return Object.fromEntries(Object.values(type.getFields()).map((f) => [f.name, nulOf(f.type)]));
      if (isEnumType(type)) return type.getValues()[0]!.name;
      const named = getNamedType(type).name;
      if (named === 'String' || named === 'ID') return 'x\u0000';
      if (named === 'Int' || named === 'Float') return 1;
      if (named === 'Boolean') return true;
      return { 'k\u0000': 'v\u0000' };
    };
    for (const op of operations) {
      const variables = Object.fromEntries(op.field.args.map((a) => [a.name, nulOf(a.type)]));
      await checked(`${op.field.name} with NUL ${JSON.stringify(variables).slice(0, 200)}`, () => post({ query: documentFor(op), variables }, { key: adminKey }));
    }
    await checked('literal NUL', () => post({ query: '{ templateCredential(credentialId: "\\u0000") }' }, { key: adminKey }));
  });

  test('malformed documents and request shapes', async () => {
    const deepSelection = (n: number) => `{ ${'didDocument(did: "x") '.repeat(1)}${'{ a '.repeat(n)}${'}'.repeat(n)} }`;
    const requestShape = fc.oneof(
      fc.record({ query: fc.oneof(hostileString, fc.constantFrom('{', 'query {', '{ __schema { types { name } } }', 'mutation { }', '{ nope }', 'subscription { x }', '{ issuerDid issuerDid2: issuerDid }')) }),
      fc.record({ query: fc.constant('query Q($a: String!) { didDocument(did: $a) }'), variables: hostileJson }),
      fc.record({ query: hostileJson, variables: hostileJson, operationName: hostileJson }),
      fc.integer({ min: 50, max: 400 }).map((n) => ({ query: deepSelection(n) })),
      fc.array(fc.record({ query: fc.constant('{ issuerDid }') }), { maxLength: 3 }),
      hostileJson,
    );
    await fc.assert(
      fc.asyncProperty(requestShape, async (body) => {
        await checked(`body ${JSON.stringify(body).slice(0, 300)}`, () => post(body, { key: adminKey }));
      }),
      { numRuns: 60 * RUNS, seed: SEED, endOnFailure: true },
    );
    for (const [raw, contentType] of [['{', 'application/json'], ['query=x', 'application/x-www-form-urlencoded'], ['{ issuerDid }', 'application/graphql'], ['', 'text/plain'], ['[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[', 'application/json']] as const) {
      await checked(`raw ${raw}`, () => post(undefined, { key: adminKey, raw, contentType }));
    }
    // Operations the schema cannot execute (no subscription type) are the client's mistake.
    for (const query of ['subscription { x }', 'subscription S { issuerDid }']) {
      const res = await checked(`operation ${query}`, () => post({ query }, { key: adminKey }));
      expect(res.errors.length).toBeGreaterThan(0);
    }
    // A Content-Encoding the body does not have.
    for (const enc of ['gzip', 'deflate', 'br']) {
      const res = await checked(`content-encoding ${enc}`, () => post(undefined, { key: adminKey, raw: '{"query":"{ issuerDid }"}', contentType: 'application/json', headers: { 'content-encoding': enc } }));
      expect(res.status).toBe(400);
    }
  });

  test('no key or a bad key: an UNAUTHENTICATED answer, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(operationCall, fc.oneof(fc.constant(undefined), fc.constantFrom('', 'cgk_x', `cgk_${'0'.repeat(32)}_${'A'.repeat(43)}`)), async ({ name, document, variables }, key) => {
        const res = await checked(`${name} without a valid key`, () => post({ query: document, variables }, { key }));
        // A document whose variables are already invalid may be refused before authentication.
        expect(res.status === 401 || res.errors.some((e) => ['UNAUTHENTICATED', 'INVALID_INPUT', 'GRAPHQL_VALIDATION_FAILED', 'BAD_REQUEST'].includes(e.extensions?.code ?? ''))).toBe(true);
      }),
      { numRuns: 40 * RUNS, seed: SEED, endOnFailure: true },
    );
  });

  test('every operation with hostile credential and transport headers (Authorization, Idempotency-Key, X-Forwarded-For, ...)', async () => {
    const withHeaders = fc.tuple(operationCall, fc.option(fc.constant(adminKey), { nil: undefined }), hostileTransportHeaders(adminToken));
    await fc.assert(
      fc.asyncProperty(withHeaders, async ([{ name, document, variables }, key, headers]) => {
        await checked(`${name} with headers ${JSON.stringify(headers).slice(0, 200)}`, () => post({ query: document, variables }, { key, headers }));
      }),
      { numRuns: 200 * RUNS, seed: SEED, endOnFailure: true },
    );
    // Each operation once more with a keyed request and a real token (the paths Idempotency-Key takes).
    for (const op of operations) {
      const [variables] = fc.sample(variablesOf(op), { numRuns: 1, seed: SEED });
      await checked(`${op.field.name} keyed`, () => post({ query: documentFor(op), variables }, { headers: { authorization: `Bearer ${adminToken}`, 'idempotency-key': `prop-${op.field.name}` } }));
    }
  });

  test('the service is still healthy afterwards', async () => {
    expect((await request(server.baseUrl, 'GET', '/healthz')).status).toBe(200);
  });
});
