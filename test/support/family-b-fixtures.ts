import { randomBytes } from 'node:crypto';
import type { Clock } from '../../src/domain/ports';
import { unwrap } from './family-a-fixtures';
import { type FamilyBTransport, graphqlFamilyB, restFamilyB } from './family-b-transports';
import type { TestServer } from './harness';
import { type Transport, graphqlTransport, restTransport } from './transports';

type Json = Record<string, any>;

/** A clock tests can move: the real time plus an offset. */
export class MovableClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
  reset(): void {
    this.offsetMs = 0;
  }
}

export const FB_ATTRIBUTES = [
  { attributeName: 'name', type: 'string', description: 'Full name' },
  { attributeName: 'birthDate', type: 'date', description: 'Date of birth' },
  { attributeName: 'employeeNo', type: 'integer', description: 'Employee number' },
];
export const FB_VALUES = { name: 'Grace Hopper', birthDate: '1990-12-09', employeeNo: 7 };

export interface KeyedDid {
  /** The plain DID (without the ledger file id). */
  did: string;
  publicKey: string;
  privateKey: string;
}

/** One tenant with an issuer DID (service-held key, also known here), a holder DID and a template. */
export interface FbParty {
  t: FamilyBTransport;
  slice: Transport;
  keys: { issuer: string; holder: string; verifier: string };
  issuer: KeyedDid;
  holder: KeyedDid;
  template: Json;
  issue(values?: Json, holder?: string): Promise<Json>;
}

export function fbTransports(server: TestServer, name: string): { t: FamilyBTransport; slice: Transport } {
  return name === 'REST' ? { t: restFamilyB(server), slice: restTransport(server, '') } : { t: graphqlFamilyB(server), slice: graphqlTransport(server) };
}

async function keyedDid(slice: Transport, key: string): Promise<KeyedDid> {
  const k = unwrap(await slice.generateKeypair(key));
  const full = unwrap(await slice.createDid(key, { method: 'credgate', publicKey: k.publicKey })).document.id;
  return { did: full.slice(0, full.lastIndexOf(':')), publicKey: k.publicKey, privateKey: k.privateKey };
}

export async function fbParty(server: TestServer, name: string, expiration: { value: number; unit: string } = { value: 2, unit: 'years' }): Promise<FbParty> {
  const { t, slice } = fbTransports(server, name);
  const tenant = `fbx-${name.toLowerCase()}-${randomBytes(4).toString('hex')}`;
  const keys = { issuer: await server.apiKey(tenant, ['issuer']), holder: await server.apiKey(tenant, ['holder']), verifier: await server.apiKey(tenant, ['verifier']) };
  const issuer = await keyedDid(slice, keys.issuer);
  const holder = await keyedDid(slice, keys.holder);
  const template = unwrap(
    await t.createTemplate(keys.issuer, { templateName: `Badge ${randomBytes(3).toString('hex')}`, description: 'Badge', issuer: issuer.did, attributes: FB_ATTRIBUTES, expiration }),
  ) as Json;
  const issue = async (values: Json = FB_VALUES, holderDid: string = holder.did) =>
    unwrap(await t.issue(keys.issuer, { templateId: template['templateId'], credentialSubject: values, holder: holderDid }));
  return { t, slice, keys, issuer, holder, template, issue };
}
