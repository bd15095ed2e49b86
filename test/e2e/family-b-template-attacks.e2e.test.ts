import { randomBytes } from 'node:crypto';
import { unwrap } from '../support/family-a-fixtures';
import { FB_ATTRIBUTES, type FbParty, fbParty } from '../support/family-b-fixtures';
import { useTestServer } from '../support/harness';
import { request } from '../support/http';

/*
 * Templates and path parameters (issue 8): GET /vc-templates silently stopped at 500 templates;
 * a non-UUID template id reached PostgreSQL's uuid cast, answered 500 and logged Prisma internals.
 */

const server = useTestServer();

type Json = Record<string, any>;
const BAD_IDS = ['not-a-uuid', '-'.repeat(36), 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz', '00000000-0000-4000-8000-00000000000g', 'x'.repeat(5000)];

describe.each(['REST', 'GraphQL'])('Family B templates through %s', (name) => {
  let p: FbParty;
  const body = (templateName: string) => ({ templateName, description: 'd', issuer: p.issuer.did, attributes: FB_ATTRIBUTES, expiration: { value: 1, unit: 'years' } });

  beforeAll(async () => {
    p = await fbParty(server, name);
    for (let i = 0; i < 2; i += 1) unwrap(await p.t.createTemplate(p.keys.issuer, body(`Extra ${i} ${randomBytes(3).toString('hex')}`)));
  });

  test('listing pages and says so: hasMore and a next cursor', async () => {
    const first = unwrap(await p.t.listTemplatesPage(p.keys.issuer, { first: 2 }));
    expect(first.items).toHaveLength(2);
    expect(first).toMatchObject({ hasMore: true, total: 3, next: first.items[1]!.templateId });
    const second = unwrap(await p.t.listTemplatesPage(p.keys.issuer, { first: 2, after: first.next! }));
    expect(second).toMatchObject({ hasMore: false, next: null, total: 3 });
    expect(second.items).toHaveLength(1);
    const all = [...first.items, ...second.items].map((t) => t.templateId);
    expect(new Set(all).size).toBe(3);
    expect(all[0]).toBe(p.template['templateId']);
    for (const bad of [0, 501]) expect(await p.t.listTemplatesPage(p.keys.issuer, { first: bad })).toMatchObject({ ok: false, status: 400 });
    for (const bad of BAD_IDS) expect(await p.t.listTemplatesPage(p.keys.issuer, { first: 2, after: bad })).toMatchObject({ ok: false, status: 400 });
  });

  test('malformed template and credential ids are 404, never a 500, and nothing about Prisma is logged', async () => {
    for (const bad of BAD_IDS) {
      expect(await p.t.updateTemplate(p.keys.issuer, bad, body(`Upd ${randomBytes(3).toString('hex')}`))).toMatchObject({ ok: false, status: 404 });
      expect(await p.t.deleteTemplate(p.keys.issuer, bad)).toMatchObject({ ok: false, status: 404 });
      expect(await p.t.get(p.keys.issuer, bad)).toMatchObject({ ok: false, status: 404 });
      expect(await p.t.revoke(p.keys.issuer, bad)).toMatchObject({ ok: false, status: 404 });
    }
    expect(server.logs.text()).not.toMatch(/prisma|invalid input syntax|P20\d\d/i);
  });
});

test('REST: the bare GET /vc-templates keeps its array and tells the client whether it is complete', async () => {
  const p = await fbParty(server, 'REST');
  const res = await request(server.baseUrl, 'GET', '/vc-templates', { headers: { 'x-api-key': p.keys.issuer } });
  expect(res.status).toBe(200);
  expect(Array.isArray(res.json)).toBe(true);
  expect(res.headers.get('x-total-count')).toBe('1');
  expect(res.headers.get('x-has-more')).toBe('false');
  // The public status path checks its id the same way.
  for (const bad of BAD_IDS) expect((await request(server.baseUrl, 'GET', `/status/${bad}`)).status).toBe(404);
  expect(server.logs.text()).not.toMatch(/prisma|invalid input syntax/i);
});
