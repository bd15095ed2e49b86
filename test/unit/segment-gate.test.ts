import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import { firstSegments, gated } from '../../src/rest/segment-gate';
import { RouteTable, collectRoutes } from '../../src/rest/route-table';

const noop = (): void => undefined;
const sorted = (s: Set<string> | null): string[] | null => (s === null ? null : [...s].sort());

describe('firstSegments: which routers may be skipped', () => {
  test('literal routes, path mounts and nested root routers give their first segments, lower-cased', () => {
    const inner = Router();
    inner.get('/Issuer/schema/:name', noop);
    const r = Router();
    r.post('/credentials/verify', noop);
    r.get('/credentials/:id', noop);
    r.use('/oauth/token', noop);
    r.use(inner);
    r.get('/', noop);
    expect(sorted(firstSegments(r.stack))).toEqual(['', 'credentials', 'issuer', 'oauth']);
  });

  test('an error handler at the root does not prevent gating (it only sees errors of this router)', () => {
    const r = Router();
    r.get('/wallet/x', noop);
    r.use((_e: unknown, _q: Request, _s: Response, next: NextFunction) => next());
    expect(sorted(firstSegments(r.stack))).toEqual(['wallet']);
  });

  test.each([
    ['a :param first segment', (r: Router) => r.get('/:id', noop)],
    ['a wildcard first segment', (r: Router) => r.get('/*rest', noop)],
    ['an optional first segment', (r: Router) => r.get('{/x}/y', noop)],
    ['a regular expression route', (r: Router) => r.get(/^\/x/, noop)],
    ['a root-mounted middleware', (r: Router) => r.use(noop)],
    ['a nested router that cannot be gated', (r: Router) => r.use(Router().use(noop))],
  ])('%s: the router is always entered', (_name, add) => {
    const r = Router();
    r.get('/fine', noop);
    add(r);
    expect(firstSegments(r.stack)).toBeNull();
  });
});

/**
 * The same routers, mounted gated and ungated, must answer every request identically: the gate
 * only skips what express would have walked through without a match.
 */
function routers(gate: boolean): express.Express {
  const g = (r: Router): Router => (gate ? (gated(r) as unknown as Router) : r);
  const hits: string[] = [];
  const app = express();
  const a = Router();
  a.use((req, _res, next) => {
    hits.push(`a:${req.path}`);
    next();
  });
  a.get('/alpha', (_q, s) => void s.send('a'));
  const b = Router();
  b.get('/Beta/:id', (q, s) => void s.json({ b: q.params['id'] }));
  b.post('/beta/x', (_q, s) => void s.status(201).send('bx'));
  b.get('/boom', () => {
    throw new Error('boom');
  });
  b.use((e: Error, _q: Request, s: Response, _n: NextFunction) => void s.status(599).send(`b caught ${e.message}`));
  const c = Router();
  c.get('/', (_q, s) => void s.send('index'));
  c.get('/gamma', (_q, s) => void s.send('c'));
  app.use(g(a));
  app.use(g(b));
  app.use(g(c));
  app.use('/api', g(b));
  app.use((_q, s) => void s.status(404).send('nf'));
  app.use((e: Error, _q: Request, s: Response, _n: NextFunction) => void s.status(500).send(`app caught ${e.message}`));
  app.locals['hits'] = hits;
  return app;
}

async function listen(app: express.Express): Promise<{ server: Server; url: string }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const REQUESTS: [string, string][] = [
  ['GET', '/alpha'],
  ['GET', '/ALPHA/'],
  ['GET', '/beta/7'],
  ['GET', '/BETA/7/'],
  ['POST', '/beta/x'],
  ['DELETE', '/beta/x'],
  ['OPTIONS', '/beta/x'],
  ['HEAD', '/gamma'],
  ['GET', '/boom'],
  ['GET', '/api/beta/9'],
  ['GET', '/api/boom'],
  ['GET', '/'],
  ['GET', '/%62eta/7'],
  ['GET', '//beta/7'],
  ['GET', '/nothing/here'],
  ['GET', '/gamma?x=/beta'],
];

test('gated and ungated routers answer every request the same', async () => {
  const plain = await listen(routers(false));
  const gate = await listen(routers(true));
  try {
    for (const [method, path] of REQUESTS) {
      const [x, y] = await Promise.all([plain.url, gate.url].map((u) => fetch(`${u}${path}`, { method })));
      const answer = async (r: Response | globalThis.Response): Promise<unknown> => {
        const res = r as globalThis.Response;
        return { status: res.status, allow: res.headers.get('allow'), body: await res.text() };
      };
      expect([method, path, await answer(y!)]).toEqual([method, path, await answer(x!)]);
    }
  } finally {
    plain.server.close();
    gate.server.close();
  }
});

test('a router with a root middleware is entered by every path, gated or not', async () => {
  const app = routers(true);
  const { server, url } = await listen(app);
  try {
    await fetch(`${url}/gamma`);
    await fetch(`${url}/alpha`);
    // Router a has a root middleware, so it cannot be gated: it still sees every path.
    expect(app.locals['hits']).toEqual(['a:/gamma', 'a:/alpha']);
  } finally {
    server.close();
  }
});

test('a gated router is not entered by a path it cannot serve', () => {
  const r = Router();
  r.get('/only', noop);
  const stack = r.stack;
  let entered = 0;
  const spy = Object.assign(() => void entered++, { stack });
  const gate = gated(spy);
  let passed = 0;
  const req = (url: string): Request => ({ url, method: 'GET', get path() { return url.split('?')[0]; } }) as unknown as Request;
  gate(req('/other/only'), {} as Response, () => passed++);
  gate(req('/ONLY?x=1'), {} as Response, () => passed++);
  expect(entered).toBe(1);
  expect(passed).toBe(1);
});

test('the route table sees through gates', () => {
  const inner = Router();
  inner.post('/credentials/verify', noop);
  inner.get('/credentials/:id', noop);
  const app = express();
  app.use(gated(inner as unknown as Parameters<typeof gated>[0]));
  const t = new RouteTable(collectRoutes(app.router.stack));
  expect(t.has('/credentials/verify')).toBe(true);
  expect([...(t.allowed('/credentials/abc') as Set<string>)].sort()).toEqual(['GET', 'HEAD']);
  expect(t.allowed('/nothing')).toBeUndefined();
});
