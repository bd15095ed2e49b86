import { type Static, Type } from '@sinclair/typebox';
import { EXPIRATION_UNITS } from '../../domain/templates/template-expiration';
import { TEMPLATE_ATTRIBUTE_TYPES } from '../../domain/templates/template-attributes';
import { Did, EXAMPLE, UUID_PATTERN, pathParam } from '../common';
import { operationGroup } from '../operation';
const op = operationGroup('B', 'Family B: templates');

/*
 * The schemas check the shape (types, required fields); the rules (name syntax, attribute types,
 * units, lengths) are the service's, which reports every problem with a message stating the rule
 * (domain/templates). Keeping the rules in one place keeps REST and GraphQL messages identical.
 */
const TemplateAttribute = Type.Object({
  attributeName: Type.String({ description: 'letters, digits and _; not `id`' }),
  type: Type.String({ description: `one of ${TEMPLATE_ATTRIBUTE_TYPES.join(', ')}` }),
  description: Type.String(),
  required: Type.Optional(Type.Boolean()),
});

export const TemplateBody = Type.Object(
  {
    templateName: Type.String({ description: 'letters, digits, space . _ - (1-128), starting with a letter or digit; unique per tenant' }),
    description: Type.String({ description: 'at most 1000 characters' }),
    issuer: Type.String({ description: 'a DID of this tenant (POST /dids) whose private key the service holds' }),
    attributes: Type.Array(TemplateAttribute),
    expiration: Type.Object({ value: Type.Integer({ description: 'at least 1' }), unit: Type.String({ description: `one of ${EXPIRATION_UNITS.join(', ')}` }) }),
    proofSuite: Type.Optional(
      Type.String({ description: "EcdsaSecp256k1Signature2019 (Family B's, the default) or bbs-2023 (W3C Data Integrity BBS: the holder derives unlinkable presentations that reveal chosen claims; issue 18)" }),
    ),
  },
  { title: 'TemplateInput' },
);
/** The input of TemplatesService.create/update, as both transports hand it over. */
export type TemplateInput = Static<typeof TemplateBody>;

export const Template = Type.Object(
  {
    _id: Type.String(),
    templateId: Type.String({ format: 'uuid' }),
    name: Type.String(),
    description: Type.String(),
    context: Type.Array(Type.String()),
    type: Type.Array(Type.String()),
    issuer: Did,
    issuanceDate: Type.String({ format: 'date-time' }),
    expirationDate: Type.String({ format: 'date-time' }),
    credentialSubject: Type.Array(Type.Object({ attributeName: Type.String(), type: Type.String(), description: Type.String() })),
    proofSuite: Type.Optional(Type.Literal('bbs-2023', { description: 'present when its credentials are bbs-2023; absent: EcdsaSecp256k1Signature2019' })),
    __v: Type.Integer(),
  },
  { title: 'Template' },
);

const templateBodyExample = {
  templateName: 'Employee badge',
  description: 'Issued to staff',
  issuer: EXAMPLE.fbDid,
  attributes: [
    { attributeName: 'name', type: 'string', description: 'Full name' },
    { attributeName: 'birthDate', type: 'date', description: 'Date of birth' },
  ],
  expiration: { value: 1, unit: 'years' },
};

export const templateExample = {
  _id: EXAMPLE.uuid,
  templateId: 'a3bb189e-8bf9-3888-9912-ace4e6543002',
  name: 'Employee badge',
  description: 'Issued to staff',
  context: ['https://www.w3.org/2018/credentials/v1', 'https://credgate.dev/contexts/v1'],
  type: ['VerifiableCredential', 'Employee badge'],
  issuer: EXAMPLE.fbDid,
  issuanceDate: EXAMPLE.timestamp,
  expirationDate: '2027-01-01T00:00:00.000Z',
  credentialSubject: templateBodyExample.attributes,
  __v: 0,
};

const ISSUER = ['issuer'] as const;
const templateId = pathParam('templateId', 'the templateId of the template', templateExample.templateId);

export const createTemplate = op('post', '/vc-templates', 'createTemplate', {
  summary: 'Create a credential template',
  scopes: ISSUER,
  body: { schema: TemplateBody, example: templateBodyExample },
  responses: { 201: { description: 'the template', schema: Template, example: templateExample } },
  errors: [409],
  idempotent: true,
});

const TemplatePage = Type.Object({ items: Type.Array(Template), hasMore: Type.Boolean(), next: Type.Union([Type.String(), Type.Null()]), total: Type.Integer() });

export const listTemplates = op('get', '/vc-templates', 'listTemplates', {
  summary: 'List templates',
  description:
    'Without `first`/`after`: a bare array (at most 500) with `X-Total-Count`, `X-Has-More` and `Link: rel="next"`. With either: one page `{ items, hasMore, next, total }`; follow `next` as `after` until it is null.',
  scopes: ISSUER,
  query: [
    // The rule the route checks is this schema (rest/middleware/validate-query.ts); 500 is MAX_TEMPLATE_PAGE.
    { name: 'first', description: 'page size, 1-500', example: 50, schema: Type.Integer({ minimum: 1, maximum: 500 }) },
    { name: 'after', description: 'the `next` cursor of the previous page', example: templateExample.templateId, schema: Type.String({ pattern: UUID_PATTERN, description: 'the templateId of a listed template' }) },
  ],
  responses: {
    200: {
      description: 'the templates (array, or one page when `first`/`after` is given)',
      schema: Type.Union([Type.Array(Template), TemplatePage]),
      example: [templateExample],
      headers: ['X-Total-Count', 'X-Has-More', 'Link'],
    },
  },
});

export const getTemplateByName = op('get', '/vc-templates/:templateName', 'getTemplateByName', {
  summary: 'Fetch a template by name (the reference labels this success 201)',
  scopes: ISSUER,
  pathParams: [pathParam('templateName', 'the template name', 'Employee badge')],
  responses: { 201: { description: 'the template', schema: Template, example: templateExample } },
  errors: [404],
});

export const updateTemplate = op('put', '/vc-templates/:templateId', 'updateTemplate', {
  summary: 'Replace a template (a new version, anchored in the issuer log)',
  scopes: ISSUER,
  pathParams: [templateId],
  body: { schema: TemplateBody, example: templateBodyExample },
  responses: { 200: { description: 'the updated template', schema: Template, example: { ...templateExample, __v: 1 } } },
  errors: [404, 409],
});

export const deleteTemplate = op('delete', '/vc-templates/:templateId', 'deleteTemplate', {
  summary: 'Delete a template (it can no longer issue)',
  scopes: ISSUER,
  pathParams: [templateId],
  responses: {
    200: {
      description: 'deleted',
      schema: Type.Object({ message: Type.String(), templateId: Type.String() }),
      example: { message: 'Template deleted', templateId: templateExample.templateId },
    },
  },
  errors: [404],
});
