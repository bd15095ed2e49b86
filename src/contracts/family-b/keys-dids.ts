import { type Static, Type } from '@sinclair/typebox';
import { EXAMPLE, JsonObject, header, pathParam } from '../common';
import { operationGroup } from '../operation';

const TAG = 'Family B: keys and DIDs';
const op = operationGroup('B', TAG);

export const generateKeypair = op('get', '/generate-keypair', 'generateKeypair', {
  summary: 'Generate a secp256k1 key pair (the private key is shown once, the service keeps it sealed)',
  scopes: ['issuer', 'holder'],
  responses: {
    200: {
      description: 'the key pair (`Cache-Control: no-store`)',
      schema: Type.Object({ keyId: Type.String(), algorithm: Type.String(), publicKey: Type.String(), privateKey: Type.String() }),
      example: { keyId: EXAMPLE.uuid, algorithm: 'secp256k1', publicKey: EXAMPLE.secpPublicKey, privateKey: EXAMPLE.secpPrivateKey },
    },
  },
});

export const CreateDidBody = Type.Object(
  {
    method: Type.String({ description: 'the service’s DID method (CREDGATE_DID_METHOD, default credgate) or key', maxLength: 64 }),
    publicKey: Type.String({ description: 'hex secp256k1 public key (service method) or a key of keyType (did:key)', maxLength: 200 }),
    keyType: Type.Optional(Type.String({ maxLength: 32, description: 'for did:key: Ed25519 or secp256k1' })),
  },
  { title: 'CreateDidInput' },
);
export type CreateDidInput = Static<typeof CreateDidBody>;

const didDocumentExample = {
  _id: EXAMPLE.uuid,
  id: `${EXAMPLE.fbDid}:0.0.2001`,
  topicId: '0.0.2002',
  templateTopicId: '0.0.2003',
  publicKey: [{ id: `${EXAMPLE.fbDid}#keys-1`, type: 'Secp256k1VerificationKey2018', publicKeyHex: EXAMPLE.secpPublicKey, _id: EXAMPLE.uuid }],
  authentication: [],
  service: [],
  created: EXAMPLE.timestamp,
  updated: EXAMPLE.timestamp,
  ledgerFileId: '0.0.2001',
  __v: 0,
};

export const createDid = op('post', '/dids', 'createDid', {
  summary: 'Create (or return the existing) DID for a public key',
  scopes: ['issuer', 'holder'],
  body: { schema: CreateDidBody, example: { method: 'credgate', publicKey: EXAMPLE.secpPublicKey } },
  responses: {
    201: { description: 'created: the DID document', schema: JsonObject, example: didDocumentExample },
    200: { description: 'this tenant already had the DID: its document', schema: JsonObject, example: didDocumentExample },
  },
  errors: [501],
  idempotent: true,
});

export const getDidByHeader = op('get', '/dids', 'getDidByHeader', {
  summary: 'Fetch a DID document (DID in the `did` header)',
  scopes: [],
  headers: [header('did', 'the DID to fetch', EXAMPLE.fbDid, 512)],
  responses: { 200: { description: 'the DID document', schema: JsonObject, example: didDocumentExample } },
  errors: [404],
});

export const getDid = op('get', '/dids/:did', 'getDid', {
  summary: 'Fetch a DID document',
  scopes: [],
  pathParams: [pathParam('did', 'the DID', EXAMPLE.fbDid)],
  responses: { 200: { description: 'the DID document', schema: JsonObject, example: didDocumentExample } },
  errors: [404],
});

const did = pathParam('did', 'the DID to resolve', EXAMPLE.fbDid);
const w3cDocument = { '@context': ['https://www.w3.org/ns/did/v1'], id: EXAMPLE.fbDid, verificationMethod: [], assertionMethod: [] };

export const resolveDid = op('get', '/resolve/:did', 'resolveDid', {
  summary: 'Resolve a DID to its W3C DID document',
  scopes: [],
  pathParams: [did],
  responses: { 200: { description: 'the DID document', contentType: 'application/did+ld+json', schema: JsonObject, example: w3cDocument } },
  errors: [404, 501],
});

const resolution = Type.Object({
  '@context': Type.String(),
  didDocument: Type.Union([JsonObject, Type.Null()]),
  didResolutionMetadata: JsonObject,
  didDocumentMetadata: JsonObject,
});
const resolutionExample = { '@context': 'https://w3id.org/did-resolution/v1', didDocument: w3cDocument, didResolutionMetadata: { contentType: 'application/did+ld+json' }, didDocumentMetadata: {} };
const RESOLUTION = 'application/ld+json;profile="https://w3id.org/did-resolution"';

export const universalResolver = op('get', '/1.0/identifiers/:did', 'universalResolver', {
  summary: 'DIF Universal Resolver driver interface',
  description: 'Failures are resolution results in the same shape: 400 invalidDid, 404 notFound, 410 deactivated, 501 methodNotSupported.',
  scopes: [],
  pathParams: [did],
  responses: {
    200: { description: 'the resolution result', contentType: RESOLUTION, schema: resolution, example: resolutionExample },
    410: {
      description: 'the DID is deactivated',
      contentType: RESOLUTION,
      schema: resolution,
      example: { ...resolutionExample, didDocumentMetadata: { deactivated: true } },
    },
  },
});
