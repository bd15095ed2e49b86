import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Kind, type OperationDefinitionNode, getIntrospectionQuery, parse } from 'graphql';
import { DEFAULT_GRAPHQL_LIMITS } from '../../src/graphql/limits/limits';
import { measureOperation } from '../../src/graphql/limits/measure';

const OPS = path.resolve(__dirname, '../../src/sdk/operations');

describe('GraphQL limits leave every legitimate operation alone', () => {
  const files = readdirSync(OPS).filter((f) => f.endsWith('.graphql'));
  // Fragments may live in any operations file: measure each file's operations with all of them.
  const allText = files.map((f) => readFileSync(path.join(OPS, f), 'utf8')).join('\n');
  const doc = parse(allText);
  const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);

  test('there are SDK operations to check', () => expect(ops.length).toBeGreaterThan(20));

  test.each(ops.map((o) => [o.name?.value ?? '(anonymous)', o] as const))('%s fits the default depth, alias and cost limits', (_name, op) => {
    const m = measureOperation(doc, op);
    expect(m.depth).toBeLessThanOrEqual(DEFAULT_GRAPHQL_LIMITS.maxDepth);
    expect(m.aliases).toBeLessThanOrEqual(DEFAULT_GRAPHQL_LIMITS.maxAliases);
    expect(m.cost).toBeLessThanOrEqual(DEFAULT_GRAPHQL_LIMITS.maxCost);
  });

  test('the standard introspection query (tools, the playground) fits too', () => {
    const d = parse(getIntrospectionQuery());
    const op = d.definitions.find((x): x is OperationDefinitionNode => x.kind === Kind.OPERATION_DEFINITION)!;
    const m = measureOperation(d, op);
    expect(m.depth).toBeLessThanOrEqual(DEFAULT_GRAPHQL_LIMITS.maxDepth);
    expect(m.cost).toBeLessThanOrEqual(DEFAULT_GRAPHQL_LIMITS.maxCost);
  });
});

describe('measureOperation', () => {
  const measure = (q: string) => {
    const d = parse(q);
    return measureOperation(d, d.definitions.find((x): x is OperationDefinitionNode => x.kind === Kind.OPERATION_DEFINITION)!);
  };

  test('counts aliases repeated through fragments and inline fragments', () => {
    expect(measure('query { ...F ...F } fragment F on Query { a: did(did: "x") { id } b: did(did: "y") { id } }').aliases).toBe(4);
    expect(measure('query { ... on Query { a: issuerDid { id } } }').aliases).toBe(1);
  });

  test('root costs come from the table; nested fields cost 1', () => {
    expect(measure('query { verifyCredential(input: $i) { success } }').cost).toBe(301);
    expect(measure('mutation { generateKeypair { keyId publicKey } }').cost).toBe(22);
  });

  test('a fragment bomb is measured in linear time with its exponential cost', () => {
    const frags = Array.from({ length: 60 }, (_, i) => `fragment F${i} on T { ${i === 59 ? 'name' : `...F${i + 1} ...F${i + 1}`} }`).join('\n');
    const m = measure(`{ x { ...F0 } }\n${frags}`);
    expect(m.cost).toBeGreaterThan(1e12 - 1);
    expect(m.depth).toBe(2);
  });
});
