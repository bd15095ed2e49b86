import fs from 'node:fs';
import path from 'node:path';
import { buildSchema, parse, validate } from 'graphql';
import { ConfigError, parseConfig } from '../../src/config';
import { EXAMPLE_TABS } from '../../src/graphql/graphiql/examples';
import { ASSET_NAMES, packageAsset } from '../../src/graphql/graphiql/assets';

const schema = buildSchema(fs.readFileSync(path.resolve(__dirname, '../../schema.graphql'), 'utf8'));

test.each(EXAMPLE_TABS.map((t) => [t.title, t] as const))('the example tab %s is valid against the schema', (_title, tab) => {
  expect(validate(schema, parse(tab.query))).toEqual([]);
  expect(() => JSON.parse(tab.variables) as unknown).not.toThrow();
});

test('every listed asset exists in node_modules; other names resolve to nothing', () => {
  for (const name of ASSET_NAMES) expect(fs.statSync(packageAsset(name)!.absolutePath).size).toBeGreaterThan(1000);
  for (const name of ['../package.json', 'toString', '__proto__', 'index.js']) expect(packageAsset(name)).toBeUndefined();
});

describe('CREDGATE_GRAPHQL_PLAYGROUND / CREDGATE_GRAPHQL_INTROSPECTION', () => {
  test('both default to on', () => {
    expect(parseConfig({}, '/srv').graphqlUi).toEqual({ playground: true, introspection: true });
  });
  test.each([
    ['false', false],
    ['0', false],
    ['OFF', false],
    ['no', false],
    ['true', true],
    ['1', true],
    ['on', true],
  ])('%j reads as %s', (raw, value) => {
    const c = parseConfig({ CREDGATE_GRAPHQL_PLAYGROUND: raw, CREDGATE_GRAPHQL_INTROSPECTION: raw }, '/srv');
    expect(c.graphqlUi).toEqual({ playground: value, introspection: value });
  });
  test('anything else is a configuration error naming the variable', () => {
    expect(() => parseConfig({ CREDGATE_GRAPHQL_PLAYGROUND: 'maybe' }, '/srv')).toThrow(ConfigError);
    expect(() => parseConfig({ CREDGATE_GRAPHQL_INTROSPECTION: 'disabled' }, '/srv')).toThrow(/CREDGATE_GRAPHQL_INTROSPECTION/);
  });
});
