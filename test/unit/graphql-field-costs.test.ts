import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, type GraphQLObjectType } from 'graphql';
import { DEFAULT_QUERY_FIELD_COST, ROOT_FIELD_COSTS } from '../../src/graphql/limits/field-costs';

/**
 * The cost table names root fields by string, so a renamed field silently falls back to the
 * default weight. These checks keep the table and the committed schema in step, and make sure
 * every verification root field (an oracle that canonicalises and fetches) is weighted.
 */
const schema = buildSchema(readFileSync(path.join(__dirname, '../../schema.graphql'), 'utf8'));
const rootFields = (type: 'Query' | 'Mutation'): string[] =>
  Object.keys((schema.getType(type) as GraphQLObjectType).getFields()).map((f) => `${type}.${f}`);

describe('GraphQL root field costs', () => {
  test('every weighted field exists in schema.graphql', () => {
    const all = new Set([...rootFields('Query'), ...rootFields('Mutation')]);
    expect(Object.keys(ROOT_FIELD_COSTS).filter((f) => !all.has(f))).toEqual([]);
  });

  test('every verification query costs more than a plain read', () => {
    const verifying = rootFields('Query').filter((f) => /^Query\.(vc)?[vV]erify/.test(f));
    expect(verifying.length).toBeGreaterThan(4);
    const light = verifying.filter((f) => (ROOT_FIELD_COSTS[f] ?? DEFAULT_QUERY_FIELD_COST) <= DEFAULT_QUERY_FIELD_COST);
    expect(light).toEqual([]);
  });
});
