import { AppError } from '../errors';
import { canonicalBytes } from '../domain/canonical';
import type { KeyCustody } from '../domain/ports';
import { type Certificate, type Conditions, evaluateConditions } from '../domain/predicates';
import type { AttributeType } from '../domain/schemas/attribute-definitions';
import { parseDateValue, parseIntegerValue } from '../domain/schemas/value-formats';
import { FIXED_MESSAGES, MAX_ZK_ATTRIBUTES, statementProblem } from './age-token';
import { type VerifierChallenge, proofNonce } from './challenge';
import { type ZkConditionsStatement, assertProvable, conditionRanges, decodeConditionsToken, encodeConditionsToken } from './conditions-statement';
import type { ZkMessage } from './core-source';
import { bytesMessage, inProvableRange, numberMessage, utcDayOf } from './encoding';
import { type ZkIssuer, issuerBbsPublicKey, sameBytes, signAndProve } from './zk-age-tokens';
import type { ZkEngine } from './zk-engine';

/** A Family A value as a message: integers and dates (UTC day) range-provable, the rest opaque bytes. */
function familyAMessage(type: AttributeType, value: unknown): ZkMessage | undefined {
  if (type === 'date') {
    const d = parseDateValue(value);
    return d ? numberMessage(utcDayOf(d.instant)) : undefined;
  }
  if (type === 'number') {
    const n = parseIntegerValue(value);
    return n !== undefined && inProvableRange(n) ? numberMessage(n) : undefined;
  }
  return undefined;
}

/**
 * Zero-knowledge ZKP certificates (Family A createZkp / verifier/verify with proofSystem
 * bbs-bulletproofs), custodial: the service, which holds the issuer key and the sealed subject,
 * signs the attributes with the issuer's BBS key and proves the conditions for the verifier's
 * challenge. Only true conditions can be proven.
 */
export class ZkCertificates {
  constructor(
    private readonly engine: ZkEngine,
    private readonly custody: KeyCustody,
  ) {}

  async create(input: { actorTenantId: string; issuer: ZkIssuer; credentialId: string; subject: Readonly<Record<string, unknown>>; types: Readonly<Record<string, AttributeType>>; conditions: Conditions; challenge: VerifierChallenge; now: Date }): Promise<{ certificate: Certificate; token: string; publicKey: Uint8Array; statement: ZkConditionsStatement }> {
    assertProvable(input.conditions);
    const outcomes = evaluateConditions(input.conditions, input.subject, input.now);
    const unmet = Object.entries(outcomes).filter(([, met]) => !met).map(([k]) => k);
    if (unmet.length > 0) throw new AppError('PREDICATE_NOT_MET', `the credential does not satisfy ${unmet.join(', ')}: a zero-knowledge proof of a false statement cannot be made`);
    const attributes = Object.keys(input.types).sort();
    if (attributes.length > MAX_ZK_ATTRIBUTES) throw new AppError('INVALID_INPUT', `a zero-knowledge proof covers at most ${MAX_ZK_ATTRIBUTES} attributes`);
    const messages: ZkMessage[] = [bytesMessage(new TextEncoder().encode(input.credentialId)), numberMessage(utcDayOf(input.now))];
    for (const name of attributes) {
      const m = familyAMessage(input.types[name]!, input.subject[name]);
      if (!m && Object.hasOwn(input.conditions, name)) throw new AppError('INVALID_INPUT', `${name} cannot be proven in zero knowledge (not an integer or a date within range)`, [{ field: name, message: 'not provable' }]);
      messages.push(m ?? bytesMessage(canonicalBytes(input.subject[name] ?? null)));
    }
    const statement: ZkConditionsStatement = {
      v: 1,
      proofSystem: 'bbs-bulletproofs',
      issuer: input.issuer.did,
      attributes,
      conditions: input.conditions,
      evaluatedAt: input.now.toISOString(),
      verifier: { id: input.challenge.verifierId, nonce: input.challenge.nonce },
    };
    const { proof, publicKey } = await signAndProve(this.engine, this.custody, {
      actorTenantId: input.actorTenantId,
      issuer: input.issuer,
      messages,
      ranges: conditionRanges(statement),
      context: canonicalBytes(statement),
      nonce: proofNonce(input.challenge, statement.evaluatedAt),
    });
    return { certificate: outcomes, token: encodeConditionsToken(statement, proof), publicKey, statement };
  }

  /** Malformed proof: INVALID_INPUT. Anything else that fails: `{ ok: false, reason }`. */
  async verify(input: { actorTenantId: string; zkpSignature: unknown; publicKey: Uint8Array | null; challenge: VerifierChallenge; now: Date; issuerOf: (did: string) => Promise<ZkIssuer | null> }): Promise<{ ok: true; statement: ZkConditionsStatement; certificate: Certificate } | { ok: false; reason: string }> {
    const { statement, proof } = decodeConditionsToken(input.zkpSignature);
    const problem = statementProblem(statement, input.challenge, input.now);
    if (problem) return { ok: false, reason: problem };
    const issuer = await input.issuerOf(statement.issuer);
    const expected = issuer ? await issuerBbsPublicKey(this.engine, this.custody, input.actorTenantId, issuer) : null;
    if (!expected || (input.publicKey !== null && !sameBytes(expected, input.publicKey))) return { ok: false, reason: 'the proof is not signed by the issuer it names' };
    const verified = await this.engine.verify(input.actorTenantId, {
      proof,
      publicKey: expected,
      messageCount: FIXED_MESSAGES + statement.attributes.length,
      ranges: conditionRanges(statement),
      context: canonicalBytes(statement),
      nonce: proofNonce(input.challenge, statement.evaluatedAt),
    });
    if (!verified) return { ok: false, reason: 'the zero-knowledge proof does not verify' };
    return { ok: true, statement, certificate: Object.fromEntries(Object.keys(statement.conditions).map((k) => [k, true])) };
  }
}
