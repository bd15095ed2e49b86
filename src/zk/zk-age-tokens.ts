import { createHash, hkdfSync } from 'node:crypto';
import { AppError } from '../errors';
import { canonicalBytes } from '../domain/canonical';
import type { KeyCustody } from '../domain/ports';
import { type CalendarDate, parseDateValue } from '../domain/templates/date-values';
import { calculateAge } from '../domain/zkp-tokens/age';
import { type ZkAgeStatement, FIXED_MESSAGES, MAX_ZK_ATTRIBUTES, agePredicateRanges, decodeZkToken, encodeZkToken, pseudonymScope, statementContext, statementProblem } from './age-token';
import { type VerifierChallenge, proofNonce } from './challenge';
import type { ZkMessage, ZkRange } from './core-source';
import { bytesMessage, dayNumber, encodeInteger, inProvableRange, numberMessage, utcDayOf } from './encoding';
import type { ZkEngine } from './zk-engine';

/** Where an issuer's BBS key comes from: its service-held key, by id, in its tenant. */
export interface ZkIssuer {
  readonly tenantId: string;
  readonly did: string;
  readonly managedKeyId: string;
}

export interface ZkCredential {
  readonly id: string;
  readonly subject: Readonly<Record<string, unknown>>;
  /** Template attribute names and types (the signed layout is the names, sorted). */
  readonly attributes: readonly { attributeName: string; type: string }[];
}

/**
 * The issuer's BBS secret seed, derived from its sealed key in KeyCustody (HKDF-SHA256, bound to
 * the DID): one BBS key per issuer DID, never stored in clear and never stored twice; rotating the
 * DID's key rotates it.
 */
function bbsSeed(privateKey: Uint8Array, did: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', privateKey, 'credgate/zk', `credgate/zk/bbs-issuer-key/v1\n${did}`, 32));
}

/**
 * Issuers' BBS public keys by a hash of their seed: a G2 multiplication in a worker (a job and a hop)
 * that every token, verification and holder signature asked for again. Keyed by the seed's hash, not
 * by a record id, so a rotated key can never be answered with the old public key. Bounded.
 */
const publicKeys = new Map<string, Uint8Array>();
const MAX_PUBLIC_KEYS = 1024;

async function publicKeyOf(engine: ZkEngine, tenant: string, seed: Uint8Array): Promise<Uint8Array> {
  const id = createHash('sha256').update(seed).digest('hex');
  const known = publicKeys.get(id);
  if (known) return known;
  const key = await engine.publicKey(tenant, seed);
  if (publicKeys.size >= MAX_PUBLIC_KEYS) publicKeys.delete(publicKeys.keys().next().value as string);
  publicKeys.set(id, key);
  return key;
}

/** A date attribute as a day number, an integer as itself; anything else as opaque bytes. */
function attributeMessage(type: string, value: unknown): ZkMessage {
  if (type === 'date') {
    const d: CalendarDate | null = parseDateValue(value);
    if (d) return { n: encodeInteger(dayNumber(d)) };
  }
  if (typeof value === 'number' && inProvableRange(value)) return numberMessage(value);
  return bytesMessage(canonicalBytes(value ?? null));
}

/**
 * Zero-knowledge ZKP tokens: the custodial path. The service holds the issuer's key and the
 * credential, so it signs the attributes with the issuer's BBS key (a signature valid until the end
 * of today) and proves, on the holder's behalf, that the birth date is early enough; the verifier
 * checks the proof against the issuer's BBS public key alone.
 */
export class ZkAgeTokens {
  constructor(
    private readonly engine: ZkEngine,
    private readonly custody: KeyCustody,
  ) {}

  /** The issuer's BBS public key (G2, 96 bytes). */
  async issuerPublicKey(issuer: ZkIssuer, forTenant: string = issuer.tenantId): Promise<Uint8Array> {
    const seed = await this.custody.use(issuer.tenantId, issuer.managedKeyId, (sk) => bbsSeed(sk, issuer.did));
    return publicKeyOf(this.engine, forTenant, seed);
  }

  /** The messages of a credential, in the layout age-token.ts describes. */
  messagesOf(credential: ZkCredential, validUntilDay: number): { attributes: string[]; messages: ZkMessage[] } {
    const attributes = credential.attributes.map((a) => a.attributeName).sort();
    if (attributes.length === 0 || attributes.length > MAX_ZK_ATTRIBUTES) throw new AppError('INVALID_INPUT', `a zero-knowledge proof covers 1-${MAX_ZK_ATTRIBUTES} attributes`);
    const types = new Map(credential.attributes.map((a) => [a.attributeName, a.type]));
    const messages: ZkMessage[] = [bytesMessage(new TextEncoder().encode(credential.id)), numberMessage(validUntilDay)];
    for (const name of attributes) messages.push(attributeMessage(types.get(name) ?? 'string', credential.subject[name]));
    return { attributes, messages };
  }

  /**
   * The issuer's BBS signature over a credential's messages, valid through `validUntilDay`: what a
   * non-custodial holder needs to prove locally (the SDK's proveZkAge). Signing only credentials
   * that are issued, for a short validity, is what makes revocation reach such holders.
   */
  async issueSignature(actorTenantId: string, issuer: ZkIssuer, credential: ZkCredential, validUntilDay: number): Promise<{ signature: Uint8Array; publicKey: Uint8Array }> {
    const seed = await this.custody.use(issuer.tenantId, issuer.managedKeyId, (sk) => bbsSeed(sk, issuer.did));
    const { messages } = this.messagesOf(credential, validUntilDay);
    return { signature: await this.engine.sign(actorTenantId, seed, messages), publicKey: await publicKeyOf(this.engine, actorTenantId, seed) };
  }

  async create(input: { actorTenantId: string; issuer: ZkIssuer; credential: ZkCredential; attribute: string; age: number; challenge: VerifierChallenge; now: Date; pseudonym?: boolean }): Promise<{ zkpToken: string; statement: ZkAgeStatement; publicKey: Uint8Array }> {
    const birth = input.credential.subject[input.attribute];
    if (typeof birth !== 'string') throw new AppError('INVALID_INPUT', `attribute ${input.attribute} holds no date`, [{ field: 'attribute', message: 'not a date attribute' }]);
    // Refused before any cryptography: a false statement has no proof, and trying would only burn a worker.
    if (calculateAge(birth, input.now) < input.age) throw new AppError('PREDICATE_NOT_MET', 'the credential does not satisfy the condition: a zero-knowledge proof of a false statement cannot be made');
    const seed = await this.custody.use(input.issuer.tenantId, input.issuer.managedKeyId, (sk) => bbsSeed(sk, input.issuer.did));
    const { attributes, messages } = this.messagesOf(input.credential, utcDayOf(input.now));
    const statement: ZkAgeStatement = {
      v: 1,
      proofSystem: 'bbs-bulletproofs',
      issuer: input.issuer.did,
      attributes,
      attribute: input.attribute,
      condition: { age: input.age },
      evaluatedAt: input.now.toISOString(),
      verifier: { id: input.challenge.verifierId, nonce: input.challenge.nonce },
    };
    const scope = pseudonymScope(input.challenge.verifierId);
    const pseudonym = input.pseudonym ? await this.engine.pseudonym(input.actorTenantId, scope, messages) : undefined;
    if (pseudonym) statement.pseudonym = Buffer.from(pseudonym).toString('base64');
    const publicKey = await publicKeyOf(this.engine, input.actorTenantId, seed);
    const signature = await this.engine.sign(input.actorTenantId, seed, messages);
    const proof = await this.engine.prove(input.actorTenantId, {
      signature,
      publicKey,
      messages,
      ranges: agePredicateRanges(statement),
      context: statementContext(statement),
      nonce: proofNonce(input.challenge, statement.evaluatedAt),
      ...(pseudonym ? { pseudonym: { scope, value: pseudonym } } : {}),
    });
    return { zkpToken: encodeZkToken({ statement, proof }), statement, publicKey };
  }

  /**
   * Checks a token for the verifier that asked (`challenge`) at `now`: the statement's challenge and
   * age; the issuer's BBS key (from `issuerOf`, the service's own record of the DID, whatever
   * publicKey the caller sends); then the proof. A malformed token throws INVALID_INPUT; every other
   * failure is `{ ok: false, reason }`.
   */
  async verify(input: { actorTenantId: string; zkpToken: unknown; publicKey: Uint8Array; challenge: VerifierChallenge; now: Date; issuerOf: (did: string) => Promise<ZkIssuer | null> }): Promise<{ ok: true; statement: ZkAgeStatement } | { ok: false; reason: string }> {
    const token = decodeZkToken(input.zkpToken);
    const s = token.statement;
    const problem = statementProblem(s, input.challenge, input.now);
    if (problem) return { ok: false, reason: problem };
    const issuer = await input.issuerOf(s.issuer);
    const expected = issuer ? await this.issuerPublicKey(issuer) : null;
    if (!expected || !sameBytes(expected, input.publicKey)) return { ok: false, reason: 'it is not signed by the issuer it names' };
    const verified = await this.engine.verify(input.actorTenantId, {
      proof: token.proof,
      publicKey: expected,
      messageCount: FIXED_MESSAGES + s.attributes.length,
      ranges: agePredicateRanges(s),
      context: statementContext(s),
      nonce: proofNonce(input.challenge, s.evaluatedAt),
      ...(s.pseudonym !== undefined ? { pseudonym: { scope: pseudonymScope(s.verifier.id), value: new Uint8Array(Buffer.from(s.pseudonym, 'base64')) } } : {}),
    });
    return verified ? { ok: true, statement: s } : { ok: false, reason: 'the proof does not verify' };
  }
}

/** Signs and proves for the custodial holder, given the message layout and the ranges (Family A certificates). */
export async function signAndProve(
  engine: ZkEngine,
  custody: KeyCustody,
  input: { actorTenantId: string; issuer: ZkIssuer; messages: ZkMessage[]; ranges: ZkRange[]; context: Uint8Array; nonce: Uint8Array },
): Promise<{ proof: Uint8Array; publicKey: Uint8Array }> {
  const seed = await custody.use(input.issuer.tenantId, input.issuer.managedKeyId, (sk) => bbsSeed(sk, input.issuer.did));
  const publicKey = await publicKeyOf(engine, input.actorTenantId, seed);
  const signature = await engine.sign(input.actorTenantId, seed, input.messages);
  const proof = await engine.prove(input.actorTenantId, { signature, publicKey, messages: input.messages, ranges: input.ranges, context: input.context, nonce: input.nonce });
  return { proof, publicKey };
}

/** The issuer's BBS public key as the service derives it (what a verifier must compare with). */
export async function issuerBbsPublicKey(engine: ZkEngine, custody: KeyCustody, actorTenantId: string, issuer: ZkIssuer): Promise<Uint8Array> {
  const seed = await custody.use(issuer.tenantId, issuer.managedKeyId, (sk) => bbsSeed(sk, issuer.did));
  return publicKeyOf(engine, actorTenantId, seed);
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
