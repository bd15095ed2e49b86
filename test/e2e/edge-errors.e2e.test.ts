import { type TestServer, startTestServer } from '../support/harness';
import { request } from '../support/http';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.apiKey('edge-errors', ['issuer', 'holder', 'verifier']);
});

afterAll(async () => {
  await server?.stop();
});

const BOUNDARY = 'b0undary';
const mp = (parts: string): string => `${parts}--${BOUNDARY}--\r\n`;
const field = (name: string, value: string): string => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;

describe('hostile bodies at the edges are client mistakes (4xx), never 500', () => {
  const cases: [string, string, string, Record<string, string>, string][] = [
    ['GraphQL text/plain', 'POST', '/graphql', { 'content-type': 'text/plain' }, '{ __typename }'],
    ['GraphQL malformed JSON', 'POST', '/graphql', { 'content-type': 'application/json' }, '{"query":'],
    ['GraphQL multipart without operations', 'POST', '/graphql', { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'apollo-require-preflight': '1' }, mp(field('map', '{}'))],
    ['GraphQL multipart with broken operations JSON', 'POST', '/graphql', { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'apollo-require-preflight': '1' }, mp(field('operations', '{nope') + field('map', '{}'))],
    ['GraphQL multipart truncated', 'POST', '/graphql', { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'apollo-require-preflight': '1' }, `--${BOUNDARY}\r\nContent-Disp`],
    ['GraphQL multipart with a bad boundary header', 'POST', '/graphql', { 'content-type': 'multipart/form-data', 'apollo-require-preflight': '1' }, 'x'],
    ['REST multipart to a JSON route', 'POST', '/dids', { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, mp(field('method', 'credgate'))],
    ['REST multipart without boundary', 'POST', '/user/image/createTemplate', { 'content-type': 'multipart/form-data' }, 'x'],
    ['REST truncated multipart upload', 'POST', '/user/image/createTemplate', { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, `--${BOUNDARY}\r\nContent-Disposition: form-data; name="originalPhoto"; filename="a"\r\n\r\nxx`],
    ['REST JSON with a bad charset', 'POST', '/dids', { 'content-type': 'application/json; charset=klingon' }, '{}'],
    ['REST deep JSON in a string-looking body', 'POST', '/dids', { 'content-type': 'application/json' }, '{"a":"' + '['.repeat(5000) + '"}'],
    ['REST body that claims gzip but is not', 'POST', '/dids', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, 'not gzip'],
    ['GraphQL body that claims deflate but is not', 'POST', '/graphql', { 'content-type': 'application/json', 'content-encoding': 'deflate' }, 'not deflate'],
    ['Family B path with broken percent-encoding', 'GET', '/resolve/%E0%A4%A', {}, ''],
    ['Family B path with a bad escape', 'GET', '/dids/%ZZ', {}, ''],
    ['Family A path with broken percent-encoding', 'GET', '/api/issuer/schema/%E0', {}, ''],
    ['public path with broken percent-encoding', 'GET', '/schema/%E0%A4%A', {}, ''],
  ];

  test.each(cases)('%s', async (_name, method, path, headers, raw) => {
    const r = await request(server.baseUrl, method, path, { headers: { 'x-api-key': key, ...headers }, ...(raw === '' ? {} : { raw }) });
    expect({ status: r.status, ok: r.status >= 400 && r.status < 500 }).toEqual({ status: r.status, ok: true });
  });

  test('nothing above was logged as an unhandled error', () => {
    expect(server.logs.lines.filter((l) => l.includes('unhandled'))).toEqual([]);
  });
});
