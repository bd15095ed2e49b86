/**
 * Local zero-knowledge age proofs for non-custodial holders (issue 18): a holder who keeps its
 * issuer's BBS signature proves "at least N years old" to a verifier without the service, and
 * anyone verifies such a token, or one the service made, offline with the issuer's BBS key. The
 * token is byte-compatible with POST /createZkpToken and /verifyZkpToken (proofSystem
 * bbs-bulletproofs): the same core source (zk-core-source.ts), the same message layout, statement,
 * context and nonce (src/zk/age-token.ts on the service side).
 *
 * @docknetwork/crypto-wasm-ts (~28 MB of WASM) is loaded on the first call only; install it next to
 * the SDK to use these helpers: npm install @docknetwork/crypto-wasm-ts
 */
import { createHash } from 'node:crypto';
import { type ZkCore, type ZkMessage, type ZkRange, zkCoreOf } from './zk-core-source';

/** What the issuer gives a non-custodial holder: its BBS signature and the signed values. */
export interface ZkAgeCredential {
  /** The issuer DID. */
  readonly issuer: string;
  /** The issuer's BBS public key (BLS12-381 G2), hex. */
  readonly issuerPublicKey: string;
  /** The BBS signature over the messages below, base64. */
  readonly signature: string;
  readonly credentialId: string;
  /** The signature is valid through this UTC day (days since 1970-01-01). */
  readonly validUntilDay: number;
  /** Every signed attribute with its template type (`date`, `integer`, `string`, ...). */
  readonly attributes: readonly { readonly name: string; readonly type: string; readonly value: unknown }[];
}

export interface ZkVerifierChallenge {
  readonly verifierId: string;
  readonly nonce: string;
}

/** The request and answer of POST /createZkpToken with proofSystem bbs-bulletproofs. */
export interface ZkAgeToken {
  readonly zkpToken: string;
  readonly zkpData: { readonly condition: { readonly age: number }; readonly conditionMet: true };
  readonly publicKey: string;
  readonly proofSystem: 'bbs-bulletproofs';
}

export type ZkAgeVerification = { readonly verified: true; readonly issuer: string; readonly pseudonym?: string } | { readonly verified: false; readonly reason: string };

const OFFSET = 2 ** 50;
const TOP = 2 ** 51;
const DAY_MS = 86_400_000;
const TTL_MS = 5 * 60 * 1000;
const SKEW_MS = 60 * 1000;

let corePromise: Promise<ZkCore> | undefined;
function core(): Promise<ZkCore> {
  corePromise ??= (async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional, loaded on first use only
    const z = require('@docknetwork/crypto-wasm-ts') as { initializeWasm(): Promise<void> };
    await z.initializeWasm();
    return zkCoreOf(z);
  })();
  return corePromise;
}

/** RFC 8785 for the plain JSON these tokens hold (strings, integers, booleans, null, arrays, objects). */
function jcs(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(jcs).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).filter((k) => o[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${jcs(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

function dayOf(y: number, m: number, d: number): number {
  const t = new Date(0);
  t.setUTCFullYear(y, m - 1, d);
  return Math.floor(t.getTime() / DAY_MS);
}

/** The calendar date a date value is written with (YYYY-MM-DD, or the date part of a date-time). */
function writtenDate(v: unknown): [number, number, number] | null {
  const m = typeof v === 'string' ? /^(\d{4})-(\d{2})-(\d{2})/.exec(v) : null;
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

function message(type: string, value: unknown): ZkMessage {
  const date = type === 'date' ? writtenDate(value) : null;
  if (date) return { n: OFFSET + dayOf(...date) };
  if (typeof value === 'number' && Number.isSafeInteger(value) && Math.abs(value) < OFFSET) return { n: OFFSET + value };
  return { b: utf8(jcs(value ?? null)) };
}

function latestBirthDay(age: number, now: Date): number {
  const y = now.getUTCFullYear() - age;
  const m = now.getUTCMonth() + 1;
  let d = now.getUTCDate();
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  if (m === 2 && d === 29 && !leap) d = 28;
  return dayOf(y, m, d);
}

interface Statement {
  v: 1;
  proofSystem: 'bbs-bulletproofs';
  issuer: string;
  attributes: string[];
  attribute: string;
  condition: { age: number };
  evaluatedAt: string;
  verifier: { id: string; nonce: string };
  pseudonym?: string;
}

const scopeOf = (verifierId: string): Uint8Array => utf8(`credgate/zk/pseudonym/v1\n${verifierId}`);

function ranges(s: Statement): ZkRange[] {
  const at = new Date(s.evaluatedAt);
  return [
    { index: 2 + s.attributes.indexOf(s.attribute), min: 0, max: OFFSET + latestBirthDay(s.condition.age, at) + 1 },
    { index: 1, min: OFFSET + Math.floor(at.getTime() / DAY_MS), max: TOP },
  ];
}

function nonceOf(c: ZkVerifierChallenge, evaluatedAt: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(`credgate/zk/nonce/v1\n${c.verifierId}\n${c.nonce}\n${evaluatedAt}`).digest());
}

/**
 * Proves, with the holder's own copy of the issuer's signature, that `attribute` (a date) is the
 * birth date of someone at least `age` years old at `now`, for this verifier's challenge. Throws
 * when the statement is false or the signature does not verify: a false statement has no proof.
 */
export async function proveZkAge(credential: ZkAgeCredential, request: { attribute: string; age: number; verifierChallenge: ZkVerifierChallenge; now?: Date; pseudonym?: boolean }): Promise<ZkAgeToken> {
  const now = request.now ?? new Date();
  const sorted = [...credential.attributes].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const statement: Statement = {
    v: 1,
    proofSystem: 'bbs-bulletproofs',
    issuer: credential.issuer,
    attributes: sorted.map((a) => a.name),
    attribute: request.attribute,
    condition: { age: request.age },
    evaluatedAt: now.toISOString(),
    verifier: { id: request.verifierChallenge.verifierId, nonce: request.verifierChallenge.nonce },
  };
  if (!statement.attributes.includes(request.attribute)) throw new Error(`the credential has no attribute ${request.attribute}`);
  const messages: ZkMessage[] = [{ b: utf8(credential.credentialId) }, { n: OFFSET + credential.validUntilDay }, ...sorted.map((a) => message(a.type, a.value))];
  const c = await core();
  const scope = scopeOf(request.verifierChallenge.verifierId);
  const pseudonym = request.pseudonym ? c.pseudonym({ scope, messages }) : undefined;
  if (pseudonym) statement.pseudonym = Buffer.from(pseudonym).toString('base64');
  const proof = c.prove({
    signature: new Uint8Array(Buffer.from(credential.signature, 'base64')),
    publicKey: new Uint8Array(Buffer.from(credential.issuerPublicKey, 'hex')),
    messages,
    ranges: ranges(statement),
    context: utf8(jcs(statement)),
    nonce: nonceOf(request.verifierChallenge, statement.evaluatedAt),
    ...(pseudonym ? { pseudonym: { scope, value: pseudonym } } : {}),
  });
  const zkpToken = Buffer.from(jcs({ proof: Buffer.from(proof).toString('base64'), statement }), 'utf8').toString('hex');
  return { zkpToken, zkpData: { condition: { age: request.age }, conditionMet: true }, publicKey: credential.issuerPublicKey.toLowerCase(), proofSystem: 'bbs-bulletproofs' };
}

/**
 * Verifies a zero-knowledge age token offline, for the verifier that issued `verifierChallenge`,
 * against the issuer BBS key the verifier trusts (not the one in the token), for `age`.
 */
export async function verifyZkAge(zkpToken: string, expected: { issuerPublicKey: string; age: number; verifierChallenge: ZkVerifierChallenge; now?: Date }): Promise<ZkAgeVerification> {
  let envelope: { proof?: unknown; statement?: Statement };
  try {
    envelope = JSON.parse(Buffer.from(zkpToken, 'hex').toString('utf8')) as typeof envelope;
  } catch {
    return { verified: false, reason: 'the token is malformed' };
  }
  const s = envelope.statement;
  if (!s || typeof envelope.proof !== 'string' || s.proofSystem !== 'bbs-bulletproofs' || !Array.isArray(s.attributes)) return { verified: false, reason: 'the token is malformed' };
  if (s.verifier?.id !== expected.verifierChallenge.verifierId || s.verifier?.nonce !== expected.verifierChallenge.nonce) return { verified: false, reason: 'the token answers another challenge' };
  if (s.condition?.age !== expected.age) return { verified: false, reason: 'the token proves another condition' };
  const now = (expected.now ?? new Date()).getTime();
  const at = Date.parse(s.evaluatedAt);
  if (!Number.isFinite(at) || at > now + SKEW_MS || now - at > TTL_MS) return { verified: false, reason: 'the token is not fresh' };
  const c = await core();
  const ok = c.verify({
    proof: new Uint8Array(Buffer.from(envelope.proof, 'base64')),
    publicKey: new Uint8Array(Buffer.from(expected.issuerPublicKey, 'hex')),
    messageCount: 2 + s.attributes.length,
    ranges: ranges(s),
    context: utf8(jcs(s)),
    nonce: nonceOf(expected.verifierChallenge, s.evaluatedAt),
    ...(typeof s.pseudonym === 'string' ? { pseudonym: { scope: scopeOf(s.verifier.id), value: new Uint8Array(Buffer.from(s.pseudonym, 'base64')) } } : {}),
  });
  return ok ? { verified: true, issuer: s.issuer, ...(typeof s.pseudonym === 'string' ? { pseudonym: s.pseudonym } : {}) } : { verified: false, reason: 'the proof does not verify' };
}
