import {
  type AttributeDefinition,
  collectAttributeDefinitions,
  collectExpiration,
  type Expiration,
} from './attribute-definitions';
import { IssueCollector, isPlainObject, ownValue, reportUnknownKeys } from './issues';

/**
 * Schema names appear in `<name>:<version>`, in credential ids `<name>:<version>:<uuid>` and as
 * a URL path segment (`/issuer/schema/{schemaName}`, `.../schema/<name>`), so ':' and '/' are out.
 * The credential id must be an IRI for the Linked Data proof to cover it, and `<name>:` is then
 * read as a URI scheme: so a name is a valid scheme (RFC 3986: a letter, then letters, digits,
 * '+', '-', '.'; we leave out '+'), which also keeps `.`/`..` impossible.
 */
export const SCHEMA_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9.-]{0,127}$/;
/**
 * The rule of {@link SCHEMA_NAME_PATTERN} in words, for error messages and docs: it must say
 * exactly what is enforced (`P_assport` and `1Passport` are refused), so keep the two together.
 */
export const SCHEMA_NAME_RULE = '1-128 characters: an ASCII letter first, then ASCII letters, digits, "." or "-" (no "_", spaces or ":")';
/** A dependant schema: a schema name, optionally pinned to a version (`name:3`). */
export const SCHEMA_REFERENCE_PATTERN = /^[A-Za-z][A-Za-z0-9.-]{0,127}(?::[1-9][0-9]{0,8})?$/;
export const MAX_DEPENDANT_SCHEMAS = 32;

/** The validated content of a createSchema request: the input of {@link buildSchemaBody}. */
export interface SchemaDraft {
  schemaName: string;
  description: string;
  attributes: readonly AttributeDefinition[];
  expiration: Expiration;
  dependantSchemas: readonly string[];
}

const REQUEST_FIELDS = ['schemaName', 'description', 'attributes', 'expiration', 'dependantSchemas'] as const;

function collectDependants(input: unknown, issues: IssueCollector): string[] {
  if (input === undefined) return [];
  if (!Array.isArray(input)) {
    issues.add('dependantSchemas', 'dependantSchemas must be an array of schema names');
    return [];
  }
  if (input.length > MAX_DEPENDANT_SCHEMAS) {
    issues.add('dependantSchemas', `dependantSchemas must list at most ${MAX_DEPENDANT_SCHEMAS} schemas`);
    return [];
  }
  const out: string[] = [];
  input.forEach((item: unknown, i) => {
    const p = `dependantSchemas[${i}]`;
    if (typeof item !== 'string' || !SCHEMA_REFERENCE_PATTERN.test(item)) {
      issues.add(p, `${p} must be a schema name (${SCHEMA_NAME_RULE}), optionally with :<version>`);
    } else if (out.includes(item)) {
      issues.add(p, `${p} repeats ${JSON.stringify(item)}`);
    } else {
      out.push(item);
    }
  });
  return out;
}

/**
 * Validates the body of POST /issuer/createSchema (spec 4.1) and reports every problem at once.
 * `attributes` may be the array or the `{ attributes: [...] }` wrapper; `dependantSchemas` may be
 * omitted (empty). Unknown top-level fields are refused.
 *
 * @throws AppError INVALID_INPUT with one detail per problem.
 */
export function parseSchemaRequest(input: unknown): SchemaDraft {
  const issues = new IssueCollector();
  if (!isPlainObject(input)) {
    issues.add('body', 'the schema request must be a JSON object');
    issues.throwIfAny('invalid schema request');
  }
  const body = input as Record<string, unknown>;
  reportUnknownKeys(body, REQUEST_FIELDS, 'body', issues);
  const schemaName = ownValue(body, 'schemaName');
  if (typeof schemaName !== 'string' || !SCHEMA_NAME_PATTERN.test(schemaName)) {
    issues.add('schemaName', `schemaName must be ${SCHEMA_NAME_RULE}`);
  }
  const description = ownValue(body, 'description');
  if (typeof description !== 'string') issues.add('description', 'description must be a string');
  const attributes = collectAttributeDefinitions(ownValue(body, 'attributes'), 'attributes', issues);
  const expiration = collectExpiration(ownValue(body, 'expiration'), 'expiration', issues);
  const dependantSchemas = collectDependants(ownValue(body, 'dependantSchemas'), issues);
  issues.throwIfAny('invalid schema request');
  return {
    schemaName: schemaName as string,
    description: description as string,
    attributes,
    expiration: expiration as Expiration,
    dependantSchemas,
  };
}
