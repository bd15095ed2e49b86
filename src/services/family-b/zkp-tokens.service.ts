import { AppError, invalidInput, notFound } from '../../errors';
import { subjectOf } from '../../domain/credentials/family-b-credential';
import { bytesToHex } from '../../domain/encoding';
import type { Clock, DidRepository, KeyCustody } from '../../domain/ports';
import type { TemplateAttribute } from '../../domain/templates';
import { createZkpToken, verifyZkpToken, zkpTokenTimeProblem, type ZkpData } from '../../domain/zkp-tokens';
import type { Actor } from '../../domain/tenancy/actor';
import type { PrismaCredentialRepository } from '../../db/repositories/credential.repository';
import type { PrismaTemplateRepository } from '../../db/repositories/template.repository';
import type { Json } from './credentials.service';
import { isCredentialId, plainDid } from './ids';
import { type ProofSystem, parseProofSystem } from '../../zk/proof-system';
import { parseVerifierChallenge } from '../../zk/challenge';
import { ZK_PROOF_TTL_MS } from '../../zk/age-token';
import type { ZkAgeTokens, ZkIssuer } from '../../zk/zk-age-tokens';
import { utcDayOf } from '../../zk/encoding';
import { mayActFor } from '../../domain/tenancy/holder-binding';
import type { CreateZkpTokenInput, VerifyZkpTokenInput, ZkHolderSignatureInput } from '../../contracts/family-b/presentations';

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
/** zkpData of a zero-knowledge token: the condition and that it holds, no computed age. */
export interface ZkZkpData {
  condition: { age: number };
  conditionMet: true;
}

/**
 * What POST /zk/holder-signature hands a non-custodial holder: the SDK's ZkAgeCredential (src/sdk/zk-age.ts),
 * the issuer's BBS signature over the credential's messages and the signed values, valid through one UTC day.
 */
export interface HolderZkSignature {
  readonly issuer: string;
  /** The issuer's BBS public key (BLS12-381 G2), hex. */
  readonly issuerPublicKey: string;
  /** base64 */
  readonly signature: string;
  readonly credentialId: string;
  /** Days since 1970-01-01 (UTC): the signature proves nothing after this day. */
  readonly validUntilDay: number;
  readonly attributes: { name: string; type: string; value: unknown }[];
}

const fail = (reason: string): AppError => new AppError('VERIFICATION_FAILED', `ZKP token is invalid: ${reason}`);

export interface ZkpTokenVerificationResult {
  readonly success: true;
  readonly conditionMet: boolean;
  /** The attestation's disclosed age; absent from a zero-knowledge token, which proves the condition only. */
  readonly calculatedAge: number | null;
  readonly message: string;
  /** Who signed: the DID of the issuer of the credential (checked, not just claimed). */
  readonly issuer: string;
  /** Null for a zero-knowledge token: the proof does not say which credential it is about. */
  readonly credentialId: string | null;
  readonly holder: string | null;
  readonly proofSystem: ProofSystem;
  /** bbs-bulletproofs with `pseudonym: true`: the credential's pseudonym for this verifier (base64), proven; else absent. */
  readonly pseudonym?: string;
  readonly issuedAt: string;
  readonly expiresAt: string;
}

/**
 * ZKP tokens: the issuer evaluates an age condition over a credential it issued and signs only the
 * outcome (a signed predicate attestation, not a cryptographic zero-knowledge proof).
 */
export class ZkpTokensService {
  constructor(
    private readonly credentials: PrismaCredentialRepository,
    private readonly templates: PrismaTemplateRepository,
    private readonly dids: DidRepository,
    private readonly custody: KeyCustody,
    private readonly clock: Clock,
    private readonly zk?: ZkAgeTokens,
  ) {}

  /**
   * POST /createZkpToken `{ credentialId | credential, attribute?, condition: { age }, proofSystem?, verifierChallenge? }`.
   * With proofSystem `bbs-bulletproofs` the token is a zero-knowledge proof for the verifier's
   * challenge, and `zkpData` has no `calculatedAge`. The input has the operation's shape (REST
   * checked the body, GraphQL's arguments have it); the rules beyond shape are checked here.
   */
  async create(actor: Actor, input: CreateZkpTokenInput): Promise<{ zkpToken: string; zkpData: ZkpData | ZkZkpData; publicKey: string; proofSystem: ProofSystem }> {
    const { credentialId, credential, attribute, condition, pseudonym } = input;
    const proofSystem = parseProofSystem(input.proofSystem);
    // The challenge's limits (lengths, printable, no other members) are rules GraphQL's type does not state.
    const challenge = proofSystem === 'bbs-bulletproofs' ? parseVerifierChallenge(input.verifierChallenge) : undefined;
    if (pseudonym !== undefined && !challenge) throw invalidInput('pseudonym is a boolean, for proofSystem bbs-bulletproofs', [{ field: 'pseudonym', message: 'boolean, bbs-bulletproofs only' }]);
    const id = credentialId ?? (typeof credential?.['id'] === 'string' ? credential['id'] : undefined);
    if (!id) throw invalidInput('credentialId or credential is required', [{ field: 'credentialId', message: 'required' }]);
    const record = isCredentialId(id) ? await this.credentials.findForTenant(actor.tenantId, id) : null;
    if (!record) throw notFound('credential');
    const now = this.clock.now();
    if (record.status !== 'issued') throw new AppError('INVALID_INPUT', 'credential is revoked');
    if (record.expiresAt.getTime() <= now.getTime()) throw new AppError('INVALID_INPUT', 'credential has expired');
    const template = await this.templates.findInternal(record.templateId);
    const attr = attribute ?? this.birthDateAttribute(template?.attributes as TemplateAttribute[] | undefined);
    if (!attr) throw invalidInput('the credential has no date attribute to evaluate; name one in attribute');
    const birthDate = subjectOf(record.document)?.[attr];
    if (typeof birthDate !== 'string') throw invalidInput(`attribute ${attr} holds no date`, [{ field: 'attribute', message: 'not a date attribute' }]);
    const issuer = (await this.dids.findById(record.issuerDidId))!;
    if (!issuer.managedKeyId) throw new AppError('INVALID_INPUT', 'issuer key is not held by this tenant');
    if (challenge) {
      const age = condition.age;
      // REST's condition may carry other members (its schema allows them); a proof states only the age.
      if (!Number.isSafeInteger(age) || age < 0 || age > 150 || Object.keys(condition).length !== 1) {
        throw invalidInput('condition must be { age: integer 0-150 }', [{ field: 'condition', message: 'age 0-150' }]);
      }
      const z = await this.zkTokens().create({
        actorTenantId: actor.tenantId,
        issuer: { tenantId: issuer.tenantId, did: issuer.did, managedKeyId: issuer.managedKeyId },
        credential: { id, subject: subjectOf(record.document) ?? {}, attributes: (template?.attributes as TemplateAttribute[] | undefined) ?? [] },
        attribute: attr,
        age,
        challenge,
        now,
        pseudonym: pseudonym === true,
      });
      return { zkpToken: z.zkpToken, zkpData: { condition: { age }, conditionMet: true }, publicKey: bytesToHex(z.publicKey), proofSystem };
    }
    const token = await this.custody.use(actor.tenantId, issuer.managedKeyId, (sk) =>
      createZkpToken({ credentialId: id, issuer: issuer.did, holder: record.holder, attribute: attr, condition, birthDate, now }, bytesToHex(sk)),
    );
    return { ...token, proofSystem };
  }

  /**
   * GET /zk/issuer-key/{did}: the BBS public key zero-knowledge proofs of this issuer verify under,
   * for verifiers checking offline (the SDK's verifyZkAge). 404 for a DID without a service-held key.
   */
  async issuerKey(did: string, actor?: Actor): Promise<{ issuer: string; type: 'Bls12381G2'; publicKeyHex: string; publicKeyBase64: string; proofSystem: 'bbs-bulletproofs' }> {
    if (did.length === 0 || did.length > 512) throw invalidInput('did must be a DID', [{ field: 'did', message: 'not a DID' }]);
    const rec = await this.dids.findByDid(did);
    if (!rec?.managedKeyId || rec.deletedAt !== null) throw notFound('issuer DID');
    const key = await this.zkTokens().issuerPublicKey({ tenantId: rec.tenantId, did: rec.did, managedKeyId: rec.managedKeyId }, actor?.tenantId);
    return { issuer: rec.did, type: 'Bls12381G2', publicKeyHex: bytesToHex(key), publicKeyBase64: Buffer.from(key).toString('base64'), proofSystem: 'bbs-bulletproofs' };
  }

  /**
   * POST /zk/holder-signature `{ credentialId }`: the issuer's BBS signature over the caller's own
   * credential, so a non-custodial holder proves range predicates itself (the SDK's proveZkAge) and
   * any verifier checks them with the issuer's BBS key. Only a holder-bound key gets it, for its own
   * holder's credential (another holder's is 404 like an unknown one): the signature lets whoever
   * holds it prove about the credential. It is valid through today (UTC) and signed only while the
   * credential is issued and unexpired, so a revoked credential cannot prove from tomorrow on: the
   * holder asks again each day (the revocation latency docs/SECURITY.md states).
   */
  async holderSignature(actor: Actor, input: ZkHolderSignatureInput): Promise<HolderZkSignature> {
    if (!actor.holderDid) throw new AppError('FORBIDDEN', "only a holder-bound API key gets a BBS signature, for its own holder's credentials");
    const id = input.credentialId;
    const record = isCredentialId(id) ? await this.credentials.findForTenant(actor.tenantId, id) : null;
    if (!record || !mayActFor(actor, record.holder)) throw notFound('credential');
    const now = this.clock.now();
    if (record.status !== 'issued') throw new AppError('INVALID_INPUT', 'credential is revoked');
    if (record.expiresAt.getTime() <= now.getTime()) throw new AppError('INVALID_INPUT', 'credential has expired');
    const template = await this.templates.findInternal(record.templateId);
    const attributes = (template?.attributes as TemplateAttribute[] | undefined) ?? [];
    const issuer = (await this.dids.findById(record.issuerDidId))!;
    if (!issuer.managedKeyId) throw new AppError('INVALID_INPUT', 'issuer key is not held by this tenant');
    const subject = subjectOf(record.document) ?? {};
    const validUntilDay = utcDayOf(now);
    const { signature, publicKey } = await this.zkTokens().issueSignature(
      actor.tenantId,
      { tenantId: issuer.tenantId, did: issuer.did, managedKeyId: issuer.managedKeyId },
      { id, subject, attributes },
      validUntilDay,
    );
    return {
      issuer: issuer.did,
      issuerPublicKey: bytesToHex(publicKey),
      signature: Buffer.from(signature).toString('base64'),
      credentialId: id,
      validUntilDay,
      attributes: attributes.map((a) => ({ name: a.attributeName, type: a.type, value: subject[a.attributeName] ?? null })),
    };
  }

  private zkTokens(): ZkAgeTokens {
    if (!this.zk) throw new AppError('FEATURE_OFF', 'zero-knowledge tokens are not configured on this service');
    return this.zk;
  }

  /**
   * The zero-knowledge branch of POST /verifyZkpToken: `verifierChallenge` is what this verifier
   * asked, `zkpData` the condition it wants proven; the answer is the boolean and who issued.
   */
  private async verifyZk(actor: Actor | undefined, input: VerifyZkpTokenInput): Promise<ZkpTokenVerificationResult> {
    const challenge = parseVerifierChallenge(input.verifierChallenge);
    const publicKey = input.publicKey;
    if (!/^[0-9a-fA-F]{192}$/.test(publicKey)) throw new AppError('INVALID_PUBLIC_KEY', 'publicKey must be the issuer BBS public key (96 bytes, hex)', [{ field: 'publicKey', message: 'BLS12-381 G2 point, hex' }]);
    const data = input.zkpData;
    const wanted = isObject(data['condition']) ? data['condition']['age'] : undefined;
    if (!Number.isSafeInteger(wanted)) throw invalidInput('zkpData.condition.age is required', [{ field: 'zkpData', message: '{ condition: { age } }' }]);
    const now = this.clock.now();
    const v = await this.zkTokens().verify({
      actorTenantId: actor?.tenantId ?? 'anonymous',
      zkpToken: input.zkpToken,
      publicKey: Uint8Array.from(Buffer.from(publicKey, 'hex')),
      challenge,
      now,
      issuerOf: async (did): Promise<ZkIssuer | null> => {
        const rec = await this.dids.findByDid(did);
        return rec?.managedKeyId && rec.deletedAt === null ? { tenantId: rec.tenantId, did: rec.did, managedKeyId: rec.managedKeyId } : null;
      },
    });
    if (!v.ok) throw fail(v.reason);
    // The verifier states the condition it needs; a proof of another (weaker) one is no answer.
    if (v.statement.condition.age !== wanted) throw fail('the token proves another condition than zkpData names');
    return {
      success: true,
      conditionMet: true,
      calculatedAge: null,
      message: 'ZKP token verified: condition met (zero-knowledge proof)',
      issuer: v.statement.issuer,
      credentialId: null,
      holder: null,
      issuedAt: v.statement.evaluatedAt,
      expiresAt: new Date(Date.parse(v.statement.evaluatedAt) + ZK_PROOF_TTL_MS).toISOString(),
      proofSystem: 'bbs-bulletproofs',
      ...(v.statement.pseudonym !== undefined ? { pseudonym: v.statement.pseudonym } : {}),
    };
  }

  /**
   * POST /verifyZkpToken `{ zkpToken, zkpData, publicKey, holderDID? }`: the signature and data;
   * the time window; that the signer is the issuer of the credential the token names (looked up
   * here, whatever DID the token claims); that the token's issuer and holder are that
   * credential's; and that the credential is, now, neither revoked nor expired.
   */
  async verify(input: VerifyZkpTokenInput, actor?: Actor): Promise<ZkpTokenVerificationResult> {
    if (parseProofSystem(input.proofSystem) === 'bbs-bulletproofs') return this.verifyZk(actor, input);
    const { holderDID, publicKey } = input;
    if (holderDID !== undefined && (holderDID === '' || holderDID.length > 512)) throw invalidInput('holderDID must be a DID', [{ field: 'holderDID', message: 'not a DID' }]);
    const v = verifyZkpToken({ zkpToken: input.zkpToken, zkpData: input.zkpData, publicKey });
    if (!v.valid || !v.claims) throw fail(v.reason ?? 'signature');
    const claims = v.claims;
    const now = this.clock.now();
    const late = zkpTokenTimeProblem(claims, now);
    if (late) throw fail(late);
    // Unknown credential and foreign signer answer alike, so the endpoint is no oracle for credential ids.
    const record = isCredentialId(claims.credentialId) ? await this.credentials.findById(claims.credentialId) : null;
    const issuer = record ? await this.dids.findById(record.issuerDidId) : null;
    if (!record || !issuer || issuer.keyAlgorithm !== 'secp256k1' || issuer.publicKeyHex !== publicKey.toLowerCase()) {
      throw fail('it is not signed by the issuer of the credential it names');
    }
    if (claims.issuer !== issuer.did) throw fail("the token names another issuer than the credential's");
    if (claims.holder !== record.holder) throw fail("the token names another holder than the credential's");
    if (holderDID !== undefined && (claims.holder === null || plainDid(holderDID) !== plainDid(claims.holder))) throw fail('the token is about another holder');
    if (record.status === 'revoked') throw fail('the credential has been revoked');
    if (record.expiresAt.getTime() <= now.getTime()) throw fail('the credential has expired');
    const { conditionMet, calculatedAge } = claims.zkpData;
    return {
      success: true,
      conditionMet,
      calculatedAge,
      message: conditionMet ? 'ZKP token verified: condition met' : 'ZKP token verified: condition not met',
      issuer: issuer.did,
      credentialId: claims.credentialId,
      holder: claims.holder,
      issuedAt: claims.issuedAt,
      expiresAt: claims.expiresAt,
      proofSystem: 'attestation',
    };
  }

  /** The default attribute: a date attribute named like a birth date, else the first date attribute. */
  private birthDateAttribute(attrs: readonly TemplateAttribute[] | undefined): string | undefined {
    const dates = (attrs ?? []).filter((a) => a.type === 'date');
    return (dates.find((a) => /birth|dob/i.test(a.attributeName)) ?? dates[0])?.attributeName;
  }
}
