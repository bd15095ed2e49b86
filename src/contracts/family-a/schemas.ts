import { type Static, Type } from '@sinclair/typebox';
import { SCHEMA_NAME_RULE } from '../../domain/schemas/schema-request';
import { JsonObject, EXAMPLE, envelopeA, exampleA, pathParam } from '../common';
import { operationGroup } from '../operation';

const TAG = 'Family A: schemas';
const op = operationGroup('A', TAG);
const ISSUER = ['issuer'] as const;

const Attribute = Type.Object({
  attributeName: Type.String(),
  type: Type.String({ description: 'alphanumeric, alphabet, email, number or date' }),
  description: Type.String(),
  required: Type.Boolean(),
  maxLength: Type.Optional(Type.String({ description: 'digits' })),
});

/** Shape only; the name rule, attribute types and units are checked (and explained) by the service. */
export const CreateSchemaBody = Type.Object(
  {
    schemaName: Type.String({ description: SCHEMA_NAME_RULE }),
    description: Type.String(),
    attributes: Type.Union([Type.Object({ attributes: Type.Array(Attribute) }), Type.Array(Attribute)], { description: 'the reference’s `{ attributes: [...] }` wrapper, or the array itself' }),
    expiration: Type.Object({ value: Type.Integer(), unit: Type.String({ description: 'e.g. years' }) }),
    dependantSchemas: Type.Optional(Type.Array(Type.String({ description: 'a schema name, optionally name:version' }))),
  },
  { title: 'CreateSchemaInput' },
);
export type CreateSchemaInput = Static<typeof CreateSchemaBody>;

const createExample = {
  schemaName: 'EmployeeBadge',
  description: 'Employee badge',
  attributes: {
    attributes: [
      { attributeName: 'name', type: 'alphabet', description: 'Given name', required: true, maxLength: '20' },
      { attributeName: 'email', type: 'email', description: 'Work email', required: true },
      { attributeName: 'age', type: 'number', description: 'Age in years', required: true },
      { attributeName: 'birthDate', type: 'date', description: 'Date of birth', required: true },
    ],
  },
  expiration: { value: 1, unit: 'years' },
  dependantSchemas: [],
};

const SchemaRecord = Type.Object({ name: Type.String(), body: JsonObject, timestamp: Type.String({ format: 'date-time' }) });
const record = {
  name: 'EmployeeBadge:1',
  body: { $schema: 'http://json-schema.org/draft-04/schema#', title: 'EmployeeBadge', description: 'Employee badge', type: 'object', properties: { name: { type: 'string', description: 'Given name', pattern: '[a-zA-Z]+$', maxLength: '20' } }, required: ['name'], expiration: { value: 1, unit: 'years' }, dependantSchemas: [] },
  timestamp: EXAMPLE.timestamp,
};

export const createSchema = op('post', '/issuer/createSchema', 'createSchema', {
  summary: 'Create a schema (or its next version)',
  scopes: ISSUER,
  body: { schema: CreateSchemaBody, example: createExample },
  responses: {
    201: {
      description: 'created',
      schema: envelopeA(
        Type.Object({
          name: Type.String(),
          message: Type.Object({ operation: Type.Literal('create'), versionContol: Type.String(), schemaDocumentBase64: Type.String(), timestamp: Type.String({ format: 'date-time' }) }),
        }),
        true,
      ),
      example: exampleA(
        { name: 'EmployeeBadge:1', message: { operation: 'create', versionContol: 'EmployeeBadge:1', schemaDocumentBase64: 'eyJ0aXRsZSI6IkVtcGxveWVlQmFkZ2UifQ==', timestamp: EXAMPLE.timestamp } },
        201,
        'Schema created and submited successfully',
      ),
    },
  },
  idempotent: true,
});

export const listSchemas = op('get', '/issuer/schemas', 'listSchemas', {
  summary: 'List the tenant’s schemas (every version)',
  scopes: ISSUER,
  responses: { 200: { description: 'the schemas', schema: envelopeA(Type.Array(SchemaRecord), true), example: exampleA([record], 200, 'Schema collection retrieved') } },
});

export const getSchema = op('get', '/issuer/schema/:schemaName', 'getSchema', {
  summary: 'Fetch a schema (`name` for the latest version, or `name:version`)',
  scopes: ISSUER,
  pathParams: [pathParam('schemaName', 'name or name:version', 'EmployeeBadge:1')],
  responses: { 200: { description: 'the schema', schema: envelopeA(SchemaRecord, true), example: exampleA(record, 200, 'Schema retrieved') } },
  errors: [400, 404],
});
