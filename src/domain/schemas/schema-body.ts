import {
  type AttributeDefinition,
  type AttributeType,
  ATTRIBUTE_NAME_PATTERN,
  collectExpiration,
  type Expiration,
  MAX_ATTRIBUTE_NAME_LENGTH,
  MAX_LENGTH_LIMIT,
  RESERVED_ATTRIBUTE_NAMES,
} from './attribute-definitions';
import { IssueCollector, isPlainObject, ownValue, quoteKey, reportUnknownKeys } from './issues';
import { parseSchemaRequest, type SchemaDraft } from './schema-request';

export const JSON_SCHEMA_DRAFT_04 = 'http://json-schema.org/draft-04/schema#';
/** The alphabet pattern exactly as the reference stores it (unanchored at the start). */
export const ALPHABET_PATTERN = '[a-zA-Z]+$';

/** One property of a stored schema body (spec 2.2); `type: 'date'` is the reference's own word. */
export interface PropertyDefinition {
  type: 'string' | 'integer' | 'date';
  description: string;
  pattern?: string;
  format?: string;
  /** Digits as text, as the reference stores it. */
  maxLength?: string;
}

/** The stored schema document (spec 2.2 "body"); members in this order. */
export interface SchemaBody {
  $schema: string;
  title: string;
  description: string;
  type: 'object';
  properties: Record<string, PropertyDefinition>;
  required: string[];
  expiration: Expiration;
  dependantSchemas: string[];
}

/** The generated property of one attribute, per the mapping table of spec 2.3. */
export function propertyDefinition(def: AttributeDefinition): PropertyDefinition {
  let prop: PropertyDefinition;
  switch (def.type) {
    case 'alphanumeric':
      prop = { type: 'string', description: def.description };
      break;
    case 'alphabet':
      prop = { type: 'string', description: def.description, pattern: ALPHABET_PATTERN };
      break;
    case 'email':
      prop = { type: 'string', description: def.description, format: 'email' };
      break;
    case 'number':
      prop = { type: 'integer', description: def.description };
      break;
    case 'date':
      prop = { type: 'date', description: def.description, format: 'date-time' };
      break;
  }
  if (def.maxLength !== undefined) prop.maxLength = def.maxLength;
  return prop;
}

/**
 * Builds the schema body stored for a createSchema request (spec 2.2), with a fixed member order
 * so the same request always yields the same bytes (and the same `schemaDocumentBase64`). The
 * draft is re-validated, so a hand-built draft cannot produce a body the validator would refuse.
 *
 * @throws AppError INVALID_INPUT when the draft is invalid.
 */
export function buildSchemaBody(draft: SchemaDraft): SchemaBody {
  const d = parseSchemaRequest({
    schemaName: draft.schemaName,
    description: draft.description,
    attributes: draft.attributes,
    expiration: draft.expiration,
    dependantSchemas: draft.dependantSchemas,
  });
  const properties: Record<string, PropertyDefinition> = {};
  for (const def of d.attributes) properties[def.attributeName] = propertyDefinition(def);
  return {
    $schema: JSON_SCHEMA_DRAFT_04,
    title: d.schemaName,
    description: d.description,
    type: 'object',
    properties,
    required: d.attributes.filter((a) => a.required).map((a) => a.attributeName),
    expiration: { value: d.expiration.value, unit: d.expiration.unit },
    dependantSchemas: [...d.dependantSchemas],
  };
}

/** The input type an existing property was generated from (inverse of the 2.3 mapping). */
export function attributeTypeOfProperty(prop: PropertyDefinition): AttributeType {
  if (prop.type === 'integer') return 'number';
  if (prop.type === 'date') return 'date';
  if (prop.format === 'email') return 'email';
  if (prop.pattern !== undefined) return 'alphabet';
  return 'alphanumeric';
}

/** Attribute name -> input type of every property of a body (what predicates and verifyParams need). */
export function attributeTypesOfBody(body: SchemaBody): Record<string, AttributeType> {
  const out: Record<string, AttributeType> = {};
  for (const [name, prop] of Object.entries(body.properties)) out[name] = attributeTypeOfProperty(prop);
  return out;
}

const BODY_FIELDS = [
  '$schema', 'title', 'description', 'type', 'properties', 'required', 'expiration', 'dependantSchemas',
] as const;
const PROPERTY_FIELDS = ['type', 'description', 'pattern', 'format', 'maxLength'] as const;

function checkProperty(raw: unknown, p: string, issues: IssueCollector): void {
  if (!isPlainObject(raw)) {
    issues.add(p, `${p} must be an object`);
    return;
  }
  reportUnknownKeys(raw, PROPERTY_FIELDS, p, issues);
  const type = ownValue(raw, 'type');
  const pattern = ownValue(raw, 'pattern');
  const format = ownValue(raw, 'format');
  const maxLength = ownValue(raw, 'maxLength');
  if (type !== 'string' && type !== 'integer' && type !== 'date') {
    issues.add(`${p}.type`, `${p}.type must be string, integer or date`);
  }
  if (typeof ownValue(raw, 'description') !== 'string') issues.add(`${p}.description`, `${p}.description must be a string`);
  // Only the generated forms are accepted: a stored body is never a channel for arbitrary regexes.
  if (pattern !== undefined && (type !== 'string' || pattern !== ALPHABET_PATTERN)) {
    issues.add(`${p}.pattern`, `${p}.pattern must be ${JSON.stringify(ALPHABET_PATTERN)} on a string property`);
  }
  const formatOk =
    format === undefined || (type === 'string' && format === 'email') || (type === 'date' && format === 'date-time');
  if (!formatOk) issues.add(`${p}.format`, `${p}.format must be email (string) or date-time (date)`);
  if (pattern !== undefined && format !== undefined) issues.add(`${p}`, `${p} cannot have both pattern and format`);
  if (maxLength !== undefined) {
    const ok =
      type === 'string' &&
      typeof maxLength === 'string' &&
      /^[1-9][0-9]*$/.test(maxLength) &&
      Number(maxLength) <= MAX_LENGTH_LIMIT;
    if (!ok) issues.add(`${p}.maxLength`, `${p}.maxLength must be a digit string on a string property`);
  }
}

/**
 * Checks that a stored or supplied body has exactly the shape {@link buildSchemaBody} produces,
 * before a validator is derived from it.
 *
 * @throws AppError INVALID_INPUT ("schema body is malformed") with one detail per problem.
 */
export function parseSchemaBody(input: unknown): SchemaBody {
  const issues = new IssueCollector();
  if (!isPlainObject(input)) {
    issues.add('schema', 'schema body must be a JSON object');
    issues.throwIfAny('schema body is malformed');
  }
  const body = input as Record<string, unknown>;
  reportUnknownKeys(body, BODY_FIELDS, 'schema', issues);
  if (ownValue(body, '$schema') !== JSON_SCHEMA_DRAFT_04) {
    issues.add('schema.$schema', `schema.$schema must be ${JSON_SCHEMA_DRAFT_04}`);
  }
  if (typeof ownValue(body, 'title') !== 'string') issues.add('schema.title', 'schema.title must be a string');
  if (typeof ownValue(body, 'description') !== 'string') issues.add('schema.description', 'schema.description must be a string');
  if (ownValue(body, 'type') !== 'object') issues.add('schema.type', 'schema.type must be "object"');
  const properties = ownValue(body, 'properties');
  if (!isPlainObject(properties) || Object.keys(properties).length === 0) {
    issues.add('schema.properties', 'schema.properties must be a non-empty object');
  } else {
    for (const [name, prop] of Object.entries(properties)) {
      const p = `schema.properties.${name.slice(0, 64)}`;
      const nameOk =
        name.length <= MAX_ATTRIBUTE_NAME_LENGTH && ATTRIBUTE_NAME_PATTERN.test(name) && !RESERVED_ATTRIBUTE_NAMES.includes(name);
      if (!nameOk) issues.add(p, `schema property name ${quoteKey(name)} is not a valid attribute name`);
      checkProperty(prop, p, issues);
    }
  }
  const required = ownValue(body, 'required');
  if (!Array.isArray(required)) {
    issues.add('schema.required', 'schema.required must be an array');
  } else {
    required.forEach((r: unknown, i) => {
      const known = typeof r === 'string' && isPlainObject(properties) && Object.hasOwn(properties, r);
      if (!known) issues.add(`schema.required[${i}]`, `schema.required[${i}] must name a property`);
      else if (required.indexOf(r) !== i) issues.add(`schema.required[${i}]`, `schema.required[${i}] is repeated`);
    });
  }
  collectExpiration(ownValue(body, 'expiration'), 'schema.expiration', issues);
  const dependants = ownValue(body, 'dependantSchemas');
  if (!Array.isArray(dependants) || !dependants.every((s) => typeof s === 'string')) {
    issues.add('schema.dependantSchemas', 'schema.dependantSchemas must be an array of strings');
  }
  issues.throwIfAny('schema body is malformed');
  return body as unknown as SchemaBody;
}
