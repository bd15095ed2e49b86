/**
 * Shared pieces of the property tests: hostile-input arbitraries, the REST route table read from
 * the live Express app, and a row-count snapshot of every table (to prove that a rejected request
 * wrote nothing).
 */
import fc from 'fast-check';
import type { TestServer } from '../support/harness';
import { collectRoutes } from '../../src/rest/route-table';

type Json = unknown;

/** Field names the service reads somewhere: random bodies use them so they reach real parsing. */
export const FIELD_NAMES = [
  'payload', 'vc', 'credentialSubject', 'credential', 'credentials', 'credentialIds', 'templateId', 'templateName', 'schemaName',
  'holder', 'holderDID', 'holderPublicKey', 'holderPrivateKey', 'sharedAttributes', 'vpToken', 'challenge', 'domain', 'data',
  'privateKey', 'publicKey', 'signature', 'method', 'keyType', 'description', 'attributes', 'expiration', 'dependantSchemas',
  'dependantVerifiableCredential', 'isEncrypted', 'issuer', 'zkpData', 'zkpToken', 'verifyParams', 'conditions', 'id', 'did',
  'templateA', 'templateB', 'request', 'value', 'unit', 'attributeName', 'type', '@context', 'proof', '__proto__', 'constructor',
] as const;

/** Header names the routes read (besides X-API-Key). */
export const HEADER_NAMES = ['publicKey', 'userSignature', 'did', 'privateKey', 'faceTemplate', 'content-type', 'accept', 'content-encoding'] as const;

/** Query names the routes read. */
export const QUERY_NAMES = ['zkpValidation', 'issuerDID', 'isCryptograph', 'downloadCryptograph', 'treeSize', 'from', 'to', 'start', 'end', 'limit', 'offset', 'page', 'first', 'after', 'version'] as const;

const unicodeText = fc.string({ unit: 'grapheme', maxLength: 40 });
const asciiText = fc.string({ unit: 'grapheme-ascii', maxLength: 40 });
const suspicious = fc.constantFrom(
  '', ' ', '\u0000', '%', '%E0%A4%A', '../../etc/passwd', "' OR 1=1 --", '${jndi:x}', '__proto__', 'did:', 'did:credgate:local:',
  'did:credgate:local:11111111111111111111111', 'did:key:z', 'did:key:zQ3sh', 'urn:uuid:00000000-0000-4000-8000-000000000000',
  '00000000-0000-0000-0000-000000000000', '0.0.1', '0.0.99999999999999999999', 'NaN', '-1', '1e309', 'true', 'null', '[]', '{}',
  'ey.ey.ey', 'A'.repeat(513), '\uD800', '\uFFFF', 'é'.repeat(300), 'x;credgate:local:fid=0.0.1',
);

/** Strings: unicode, suspicious values and long ones (up to 20 000 characters). */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: unicodeText },
  { weight: 3, arbitrary: suspicious },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 20_000 }).map((n) => 'a'.repeat(n)) },
  { weight: 1, arbitrary: fc.hexaString({ maxLength: 140 }) },
);

const hostileNumber = fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.constantFrom(0, -0, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, -(2 ** 31) - 1, 0.1));

const leaf: fc.Arbitrary<Json> = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));

/** Any JSON value, with keys drawn mostly from the service's own field names. */
export const hostileJson: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...FIELD_NAMES), asciiText), tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** A value nested `depth` levels deep (arrays or objects). */
export function nested(depth: number, kind: 'array' | 'object', inner: Json = 1): Json {
  let v: Json = inner;
  for (let i = 0; i < depth; i++) v = kind === 'array' ? [v] : { a: v };
  return v;
}

/** JSON-object bodies: known fields with wrong types, deep nesting, or random shapes. */
export const hostileBody: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(fc.constantFrom(...FIELD_NAMES), hostileJson, { minKeys: 1, maxKeys: 8 }) },
  { weight: 2, arbitrary: hostileJson },
  {
    weight: 1,
    arbitrary: fc
      .record({ field: fc.constantFrom(...FIELD_NAMES), depth: fc.integer({ min: 20, max: 200 }), kind: fc.constantFrom('array' as const, 'object' as const) })
      .map(({ field, depth, kind }) => ({ [field]: nested(depth, kind) })),
  },
  // Many keys / long arrays: breadth rather than depth.
  { weight: 1, arbitrary: fc.constantFrom(...FIELD_NAMES).chain((f) => fc.integer({ min: 50, max: 2000 }).map((n) => ({ [f]: Array.from({ length: n }, (_, i) => `v${i}`) }))) },
);

/** Raw bodies: not JSON, odd JSON, or JSON nested thousands deep; and the content types they are sent with. */
export const rawBody = fc.record({
  body: fc.oneof(
    fc.constantFrom('', '{', '{"a":', '[1,2', '{"a":1}}', 'null', '"text"', '123', 'true', '{"__proto__":{"x":1}}', '\u0000', '\uFEFF{}', '{"a":"\\ud800"}', '{"a":1e999}'),
    asciiText,
    fc.integer({ min: 1000, max: 6000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
    fc.integer({ min: 1000, max: 6000 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)),
    // A known field holding 1 000 - 6 000 levels (built as text: JSON.stringify would overflow).
    fc
      .record({ field: fc.constantFrom(...FIELD_NAMES), n: fc.integer({ min: 1000, max: 6000 }), array: fc.boolean() })
      .map(({ field, n, array }) => `{"${field}":${array ? '['.repeat(n) + '1' + ']'.repeat(n) : '{"a":'.repeat(n) + '1' + '}'.repeat(n)}}`),
  ),
  contentType: fc.constantFrom(
    'application/json', 'application/json; charset=latin1', 'application/json; charset=utf-16', 'application/ld+json', 'text/plain',
    'application/x-www-form-urlencoded', 'multipart/form-data', 'multipart/form-data; boundary=x', 'application/octet-stream', '',
  ),
});

/** Printable ASCII header values (fetch refuses anything else), some long. */
export const headerValue = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
  fc.constantFrom('', ' ', 'did:credgate:local:x', 'AAAA', '00'.repeat(32), '00'.repeat(64), 'z'.repeat(300), 'application/json', 'gzip', 'br'),
  fc.integer({ min: 500, max: 7000 }).map((n) => 'b'.repeat(n)),
);

export const headerSet = fc.dictionary(fc.constantFrom(...HEADER_NAMES), headerValue, { maxKeys: 4 });

/** Path-segment values: encoded by the caller. Raw `%` sequences are malformed on purpose. */
export const pathValue = fc.oneof(hostileString.filter((s) => s.length < 3000), fc.uuid());

/** encodeURIComponent that also takes lone surrogates (sent as the invalid UTF-8 they would be). */
export function encodeAny(s: string): string {
  return s.replace(/[\uD800-\uDFFF]/g, (c, i: number) => {
    const code = c.charCodeAt(0);
    const pairedHigh = code < 0xdc00 && /[\uDC00-\uDFFF]/.test(s[i + 1] ?? '');
    const pairedLow = code >= 0xdc00 && /[\uD800-\uDBFF]/.test(s[i - 1] ?? '');
    return pairedHigh || pairedLow ? c : '\u0001';
  }).split('\u0001').map(encodeURIComponent).join('%ED%A0%80');
}

export const queryString = fc
  .array(fc.tuple(fc.constantFrom(...QUERY_NAMES), fc.oneof(hostileString.filter((s) => s.length < 2000), fc.constantFrom('true', 'false', '1', '-1', '0'))), { maxLength: 3 })
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${encodeAny(v)}`).join('&')}`));

// ---------- route table ----------

export interface RouteSpec {
  readonly method: string;
  readonly path: string;
}

/**
 * Every REST route the app serves, read with the service's own route table
 * (src/rest/route-table.ts, the one 405 answers and `GET /` use) from the mounted routers, mount
 * prefixes such as /api included, so a new route is fuzzed without editing this file. Endpoints
 * that take any method (/graphql) are left to the GraphQL property test.
 */
export function routeTable(server: TestServer): RouteSpec[] {
  const out = new Map<string, RouteSpec>();
  const stack = (server.app.http as unknown as { router: { stack: unknown[] } }).router.stack;
  for (const entry of collectRoutes(stack)) {
    if (entry.methods === '*') continue;
    for (const m of entry.methods) out.set(`${m} ${entry.pattern}`, { method: m, path: entry.pattern });
  }
  return [...out.values()].sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}

/** `METHOD /express/:pattern` of every operation in an OpenAPI document (`{param}` -> `:param`). */
export function openapiOperations(doc: { paths?: Record<string, Record<string, unknown>> }): string[] {
  const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => methods.includes(m))
      .map((m) => `${m.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`),
  );
}

/** Fills `:param` segments. `raw` keeps a value unencoded (malformed escapes on purpose). */
export function fillPath(path: string, values: readonly string[], raw: boolean): string {
  let i = 0;
  return path.replace(/:([A-Za-z]+)/g, () => {
    const v = values[i++ % Math.max(values.length, 1)] ?? 'x';
    return raw ? v.replace(/[/?#\s]/g, '_').replace(/[\uD800-\uDFFF]/g, '_') : encodeAny(v);
  });
}

// ---------- nothing written ----------

/** Tables whose whole purpose is to count requests (rate limits) or remember answers (idempotency keys): they may change. */
const COUNTER_TABLE = /rate|limit|bucket|throttle|attempt|idempotency/i;

export async function tableNames(server: TestServer): Promise<string[]> {
  const rows = await server.app.db.prisma.$queryRawUnsafe<{ table_name: string }[]>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name NOT LIKE '\\_prisma%' ORDER BY table_name`,
  );
  return rows.map((r) => r.table_name).filter((t) => !COUNTER_TABLE.test(t));
}

/** Row counts of the given tables in one statement. */
export async function rowCounts(server: TestServer, tables: readonly string[]): Promise<Record<string, number>> {
  const sql = `SELECT ${tables.map((t, i) => `(SELECT count(*) FROM "${t}") AS c${i}`).join(', ')}`;
  const [row] = await server.app.db.prisma.$queryRawUnsafe<Record<string, bigint>[]>(sql);
  return Object.fromEntries(tables.map((t, i) => [t, Number(row![`c${i}`])]));
}

/**
 * A stack trace or source location in an answer: a `    at fn (file:line:col)` frame (raw or
 * JSON-escaped), a script path with line and column, or a `stack` member. Answers name codes and
 * messages, never where in the code something failed.
 */
const STACK_TRACE = /(?:\n|\\n)\s*at\s+\S+.*?:\d+:\d+|[\w./\\-]+\.(?:[cm]?js|ts):\d+:\d+|"stack"\s*:/;

/** The stack-trace fragment of an answer's text, if any. */
export function stackTraceIn(text: string): string | undefined {
  return STACK_TRACE.exec(text)?.[0];
}

/**
 * Credential and transport headers every route reads before its own: Authorization in every
 * shape (garbage, Basic, forged or oversized Bearer, the real token added by the caller),
 * Idempotency-Key (valid, malformed, oversized), X-Forwarded-For (honoured only from a trusted
 * proxy), X-Request-Id, Accept.
 */
export function hostileTransportHeaders(goodBearer: string): fc.Arbitrary<Record<string, string>> {
  const authorization = fc.oneof(
    fc.constantFrom(
      'Bearer', 'Bearer ', `Bearer ${goodBearer}`, `Bearer ${goodBearer}x`, `Bearer ${goodBearer.split('.').slice(0, 2).join('.')}.`,
      'Bearer eyJhbGciOiJub25lIiwidHlwIjoiYXQrand0In0.eyJzdWIiOiJ4In0.', `Bearer ${'a'.repeat(5000)}`, 'Basic', 'Basic !!!',
      `Basic ${Buffer.from('client:secret').toString('base64')}`, 'Digest username="x"', 'ApiKey x', 'bearer  x.y.z',
    ),
    headerValue,
  );
  const idempotencyKey = fc.oneof(fc.constantFrom('', ' ', 'k'.repeat(256), 'a b', 'same-key', 'k'.repeat(255)), fc.uuid(), headerValue);
  const forwardedFor = fc.oneof(fc.constantFrom('', '1.2.3.4', '::1', '1.2.3.4, 5.6.7.8', '300.1.1.1', 'unknown', '_hidden', 'fe80::1%eth0', `${'9.'.repeat(2000)}9`), headerValue);
  return fc.record(
    { authorization, 'idempotency-key': idempotencyKey, 'x-forwarded-for': forwardedFor, 'x-request-id': headerValue, accept: fc.constantFrom('*/*', 'text/html', 'application/xml', 'application/json;q=0', '', 'x') },
    { requiredKeys: [] },
  );
}

/** Log lines that mean a request crashed into the generic 500 path. */
export function crashLines(server: TestServer, from: number): string[] {
  return server.logs.lines.slice(from).filter((l) => /unhandled|"level":(50|60)/.test(l));
}
