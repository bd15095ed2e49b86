import { randomBytes } from 'node:crypto';
import type { TestServer } from './harness';
import { type FamilyATransport, type HolderHeaders, graphqlFamilyA, restFamilyA } from './family-a-transports';
import { type Outcome, type Transport, graphqlTransport, restTransport } from './transports';

export const FAMILY_A_TRANSPORTS = ['REST', 'REST /api', 'GraphQL'] as const;

/** A schema exercising every attribute type of the reference's mapping table (read-only: copy before editing). */
export const ATTRIBUTES: readonly Readonly<Record<string, unknown>>[] = [
  { attributeName: 'name', type: 'alphabet', description: 'Given name', required: true, maxLength: '20' },
  { attributeName: 'email', type: 'email', description: 'Work email', required: true },
  { attributeName: 'age', type: 'number', description: 'Age in years', required: true },
  { attributeName: 'birthDate', type: 'date', description: 'Date of birth', required: true },
  { attributeName: 'employeeId', type: 'alphanumeric', description: 'Badge', required: false },
];

/** Values as Family A sends them: numbers and dates as strings. Fresh object each call. */
export const subject = (): Record<string, string> => ({ name: 'Alice', email: 'alice@example.com', age: '30', birthDate: '1990-05-17', employeeId: 'E-1' });

export const schemaBody = (schemaName: string) => ({
  schemaName,
  description: 'Employee badge',
  attributes: { attributes: ATTRIBUTES.map((a) => ({ ...a })) },
  expiration: { value: 1, unit: 'years' },
  dependantSchemas: [] as string[],
});

export function unwrap<T>(o: Outcome<T>): T {
  if (!o.ok) throw new Error(`expected success, got ${o.status} ${o.code ?? ''}`);
  return o.data;
}

/** One tenant with an issuer, a holder and a verifier key, and both transports' clients. */
export interface Party {
  fa: FamilyATransport;
  slice: Transport;
  tenant: string;
  issuerKey: string;
  holderKey: string;
  verifierKey: string;
}

export async function newParty(server: TestServer, transport: string): Promise<Party> {
  const tenant = `fa-${transport.toLowerCase().replace(/[^a-z]/g, '')}-${randomBytes(3).toString('hex')}`;
  const prefix = transport === 'REST /api' ? '/api' : '';
  return {
    fa: transport === 'GraphQL' ? graphqlFamilyA(server) : restFamilyA(server, prefix),
    slice: transport === 'GraphQL' ? graphqlTransport(server) : restTransport(server, prefix),
    tenant,
    issuerKey: await server.apiKey(tenant, ['issuer']),
    holderKey: await server.apiKey(tenant, ['holder']),
    verifierKey: await server.apiKey(tenant, ['verifier']),
  };
}

export interface Holder {
  did: string;
  privateKey: string;
  publicKey: string;
}

/** A holder: an Ed25519 key pair (GET /user/generateKeyPair) and its user DID (GET /user/did). */
export async function newHolder(p: Party): Promise<Holder> {
  const kp = unwrap(await p.slice.generateUserKeyPair(p.holderKey));
  return { ...kp, did: unwrap(await p.slice.userDid(p.holderKey, kp.publicKey)) };
}

/** Signs a subject through POST /user/sign and returns the issuance headers. */
export async function consent(p: Party, h: Holder, issuerDid: string, values: Record<string, unknown>): Promise<HolderHeaders> {
  const userSignature = unwrap(await p.fa.sign(p.holderKey, h.privateKey, issuerDid, { credentialSubject: { id: h.did, ...values } }));
  return { did: h.did, publicKey: h.publicKey, userSignature };
}
