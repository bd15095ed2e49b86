import { Router } from 'express';
import { RouteTable, collectRoutes } from '../../src/rest/route-table';

const noop = (): void => undefined;

function table(): RouteTable {
  const inner = Router();
  inner.post('/issuer/createSchema', noop);
  inner.get('/issuer/schema/:schemaName', noop);
  const outer = Router();
  outer.use(['/api', '/issuer'], noop);
  outer.use('/api', inner);
  outer.use(inner);
  outer.post('/credentials/verify', noop);
  outer.get('/credentials/:credentialId', noop);
  outer.delete('/credentials/:credentialId', noop);
  outer.use('/graphql', noop);
  outer.get('/files/*rest', noop);
  return new RouteTable(collectRoutes(outer.stack));
}

const sorted = (a: ReturnType<RouteTable['allowed']>): string[] | string | undefined => (a === undefined || a === '*' ? a : [...a].sort());

test('mounted routers are prefixed; literal routes beat :param routes', () => {
  const t = table();
  expect(sorted(t.allowed('/api/issuer/createSchema'))).toEqual(['POST']);
  expect(sorted(t.allowed('/issuer/createSchema'))).toEqual(['POST']);
  expect(sorted(t.allowed('/credentials/verify'))).toEqual(['POST']);
  expect(sorted(t.allowed('/credentials/abc'))).toEqual(['DELETE', 'GET', 'HEAD']);
});

test('matching is case-insensitive, tolerates one trailing slash, and params need a non-empty segment', () => {
  const t = table();
  expect(sorted(t.allowed('/API/Issuer/CreateSchema/'))).toEqual(['POST']);
  expect(t.allowed('/credentials/')).toBeUndefined();
  expect(t.allowed('/credentials//')).toBeUndefined();
  expect(t.allowed('/credentials/a/b')).toBeUndefined();
});

test('a plain middleware on its own path accepts any method there only; other syntax is left to express', () => {
  const t = table();
  expect(t.allowed('/graphql')).toBe('*');
  expect(t.allowed('/graphql/x')).toBeUndefined();
  expect(t.allowed('/issuer')).toBe('*');
  expect(t.allowed('/files/a/b')).toBeUndefined();
  expect(t.has('/nowhere')).toBe(false);
});
