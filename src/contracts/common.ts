import { type TSchema, Type } from '@sinclair/typebox';
import type { Parameter } from './operation';

/** Any JSON object (credentials, documents): the services check their content. */
export const JsonObject = Type.Object({}, { additionalProperties: true });
export const Did = Type.String({ minLength: 1, maxLength: 512, description: 'a DID, e.g. did:credgate:local:…' });
export const HexKey = Type.String({ pattern: '^[0-9a-fA-F]+$', description: 'hex-encoded key' });
/** A UUID in its text form (either case), as page cursors and record ids are. */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** One per-field problem; the same list GraphQL puts in `extensions.details`. */
export const FieldIssue = Type.Object({ field: Type.String(), message: Type.String() }, { additionalProperties: false });

/** Family B (and service route) error body: `error` first, then `code` and optional `details`. */
export const FamilyBError = Type.Object(
  { error: Type.String(), code: Type.String(), details: Type.Optional(Type.Array(FieldIssue)) },
  { title: 'FamilyBError', additionalProperties: true },
);

/** RFC 9457 problem details (the VC-API routes' errors): `code` and `details` as in the other families. */
export const ProblemDetails = Type.Object(
  { type: Type.String(), title: Type.String(), status: Type.Integer(), detail: Type.String(), code: Type.String(), details: Type.Optional(Type.Array(FieldIssue)) },
  { title: 'ProblemDetails', additionalProperties: true },
);

/** Family A error envelope. */
export const FamilyAError = Type.Object(
  {
    success: Type.Literal(false),
    status: Type.Integer(),
    message: Type.String(),
    code: Type.String(),
    details: Type.Optional(Type.Array(FieldIssue)),
  },
  { title: 'FamilyAError', additionalProperties: false },
);

/** Family A success envelope around `data`. */
export function envelopeA(data: TSchema, withMessage = false) {
  return Type.Object(
    {
      success: Type.Literal(true),
      data,
      ...(withMessage ? { message: Type.String() } : { message: Type.Optional(Type.String()) }),
      status: Type.Integer(),
    },
    { additionalProperties: false },
  );
}

export const exampleA = (data: unknown, status: number, message?: string) =>
  message === undefined ? { success: true, data, status } : { success: true, data, message, status };

export const pathParam = (name: string, description: string, example: string): Parameter => ({
  name,
  description,
  example,
  schema: Type.String({ minLength: 1 }),
  required: true,
});

export const booleanQuery = (name: string, description: string): Parameter => ({
  name,
  description,
  example: 'false',
  schema: Type.String({ enum: ['true', 'false'] }),
});

export const header = (name: string, description: string, example: string, maxLength: number, required = true): Parameter => ({
  name,
  description,
  example,
  required,
  schema: Type.String({ minLength: 1, maxLength }),
});

/** Example values that the examples share, in the shapes the service produces. */
export const EXAMPLE = {
  faDid: 'did:credgate:local:z6MkvR8bN1j2R3Q4hUe3kQmX5Zo7J3W9c1aTt6S2p8Yq4LdE;credgate:local:fid=0.0.1001',
  fbDid: 'did:credgate:local:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme',
  // Real key pairs made for these examples only (never used by a deployment), so that requests
  // built from the examples succeed: the contract test sends some of them.
  edPublicKey: 'jLbT3ixHNR/3LRzjagnmdcLddWJ/6XM7HVXjIEXHTFs=',
  edPrivateKey: 'qg62hlHaBci/B3t7x4lwycl7Zqn6X4k4JDmfySWoITw=',
  secpPublicKey: '03cae2df4a2881bc8c02203450dbe05ea0fef6178e0b3e307c80d28a40b7fc15ad',
  secpPrivateKey: 'fe99731e58fa4f15c1303ab0815f346f5bf37e82af0c0cc693cc71adaa762ef0',
  signatureHex: '3a7f'.repeat(32),
  uuid: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  timestamp: '2026-01-01T00:00:00.000Z',
} as const;
