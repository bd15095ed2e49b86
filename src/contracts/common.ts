import { type TSchema, Type } from '@sinclair/typebox';
import type { Parameter } from './operation';

/** Any JSON object (credentials, documents): the services check their content. */
export const JsonObject = Type.Object({}, { additionalProperties: true });
export const Did = Type.String({ minLength: 1, maxLength: 512, description: 'a DID, e.g. did:svcid:testnet:…' });
export const HexKey = Type.String({ pattern: '^[0-9a-fA-F]+$', description: 'hex-encoded key' });

/** One per-field problem; the same list GraphQL puts in `extensions.details`. */
export const FieldIssue = Type.Object({ field: Type.String(), message: Type.String() }, { additionalProperties: false });

/** Family B (and service route) error body: `error` first, then `code` and optional `details`. */
export const FamilyBError = Type.Object(
  { error: Type.String(), code: Type.String(), details: Type.Optional(Type.Array(FieldIssue)) },
  { title: 'FamilyBError', additionalProperties: true },
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
  faDid: 'did:svcid:testnet:z6MkvR8bN1j2R3Q4hUe3kQmX5Zo7J3W9c1aTt6S2p8Yq4LdE;svcid:testnet:fid=0.0.1001',
  fbDid: 'did:svcid:testnet:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme',
  edPublicKey: 'pV1n3G0b6j1bV1qQp8m2Xo3kq5Lx1o9S8m4ZbE6dT7U=',
  edPrivateKey: 'q0lB5x1uU3xZc4m8QyYQh0bCZl5l3F0kS1i2p9q7r8s=',
  secpPublicKey: '02a1633cafcc01ebfb6d78e39f687a1f0995c62fc95f51ead10a02ee0be551b5dc',
  secpPrivateKey: '8f2a559490c5b7b1d3e3a3b1f3c8a6a1b2c3d4e5f60718293a4b5c6d7e8f9a0b',
  signatureHex: '3a7f'.repeat(32),
  uuid: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  timestamp: '2026-01-01T00:00:00.000Z',
} as const;
