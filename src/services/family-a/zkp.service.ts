import { AppError, invalidInput, notFound } from '../../errors';
import { type ProvenPredicate, type ZkpStatement, conditionPredicate, equalsPredicate, statementJson, zkpStatementBytes } from '../../domain/credentials/zkp-certificate';
import { bytesToBase64, bytesToHex, hexToBytes } from '../../domain/encoding';
import { ed25519Sign } from '../../domain/keys';
import type { Clock, DidRepository, IssuedCredentialRepository, KeyCustody, SchemaRepository } from '../../domain/ports';
import { type Certificate, evaluateConditions, matchVerifyParams, parseConditions, parseVerifyParams } from '../../domain/predicates';
import { attributeTypesOfBody, parseSchemaBody } from '../../domain/schemas';
import type { Actor } from '../../domain/tenancy/actor';
import type { CredentialsService } from './credentials.service';
import { parseVcReference } from './issue-request';
import { type ProofSystem, parseProofSystem } from '../../zk/proof-system';
import { parseVerifierChallenge } from '../../zk/challenge';
import type { ZkCertificates } from '../../zk/zk-certificates';
import type { ZkConditionsStatement } from '../../zk/conditions-statement';
import type { CreateZkpInput } from '../../contracts/family-a/issuer';

export interface ZkpCertificateResult {
  readonly certificate: Certificate;
  /**
   * attestation: hex Ed25519 signature by the credential's issuer key over the statement
   * (`zkpStatementBytes`). bbs-bulletproofs: the proof envelope (hex), which the verifier sends back
   * as `zkpSignature` as the reference's flow does.
   */
  readonly userSignature: string;
  /** What is proven: each predicate with its bounds, the evaluation time and the credential (attestation only). */
  readonly statement: ZkpStatement | null;
  /** bbs-bulletproofs: the public statement of the proof (no credential, holder or value). */
  readonly zkStatement?: ZkConditionsStatement;
  /** The issuer's public key, base64: Ed25519 for an attestation, BBS (BLS12-381 G2) for bbs-bulletproofs. */
  readonly publicKey: string;
  readonly proofSystem: ProofSystem;
}

/**
 * ZKP certificates: the issuer evaluates predicates over its own plaintext copy of the subject and
 * signs only the outcomes, so a verifier learns "age >= 18" without the birth date. This is a
 * signed predicate attestation by the issuer, not a zero-knowledge proof in the cryptographic sense.
 */
export class ZkpService {
  constructor(
    private readonly credentials: IssuedCredentialRepository,
    private readonly schemas: SchemaRepository,
    private readonly dids: DidRepository,
    private readonly custody: KeyCustody,
    private readonly issuance: CredentialsService,
    private readonly clock: Clock,
    private readonly zk?: ZkCertificates,
  ) {}

  /**
   * POST /issuer/createZkp: every key other than `credentials` and `verifyParams` (and the additive
   * `proofSystem` and `verifierChallenge`) is a condition. With proofSystem bbs-bulletproofs the
   * answer is a zero-knowledge proof of the conditions for the verifier's challenge; only true
   * conditions can be proven, and verifyParams (equality with a disclosed value) is not offered.
   * The input has the operation's shape (REST's top-level conditions gathered by createZkpInputOf);
   * the values are checked here against the credential's schema, alike for both transports.
   */
  async create(actor: Actor, input: CreateZkpInput): Promise<ZkpCertificateResult> {
    const { credentials, verifyParams, conditions: conditionInput } = input;
    const proofSystem = parseProofSystem(input.proofSystem);
    const challenge = proofSystem === 'bbs-bulletproofs' ? parseVerifierChallenge(input.verifierChallenge) : undefined;
    if (challenge && verifyParams !== undefined) throw invalidInput('verifyParams reveal values; a bbs-bulletproofs proof takes conditions only', [{ field: 'verifyParams', message: 'not with bbs-bulletproofs' }]);
    const { id } = parseVcReference(credentials, 'credentials');
    const record = await this.credentials.findForTenant(actor.tenantId, id);
    if (!record) throw notFound('credential');
    if (record.status !== 'issued') throw new AppError('CONFLICT', `credential ${id} is ${record.status}`);
    const schema = await this.schemas.findById(record.schemaId);
    if (!schema) throw notFound('schema');
    const types = attributeTypesOfBody(parseSchemaBody(schema.body));
    const conditions = parseConditions(conditionInput, types);
    if (Object.keys(conditions).length === 0 && verifyParams === undefined) throw invalidInput('give at least one condition or verifyParams');
    const params = verifyParams === undefined ? [] : parseVerifyParams(verifyParams, types);
    const subject = this.issuance.plainSubject(record);
    const now = this.clock.now();
    if (challenge) {
      if (!this.zk) throw new AppError('FEATURE_OFF', 'zero-knowledge certificates are not configured on this service');
      const zkIssuer = await this.dids.findById(record.issuerDidId);
      if (!zkIssuer?.managedKeyId) throw new Error('credential issuer has no service-held key');
      const z = await this.zk.create({
        actorTenantId: actor.tenantId,
        issuer: { tenantId: zkIssuer.tenantId, did: zkIssuer.did, managedKeyId: zkIssuer.managedKeyId },
        credentialId: id,
        subject,
        types,
        conditions,
        challenge,
        now,
      });
      return { certificate: z.certificate, userSignature: z.token, publicKey: bytesToBase64(z.publicKey), statement: null, zkStatement: z.statement, proofSystem };
    }
    const outcomes: Certificate = evaluateConditions(conditions, subject, now);
    const predicates: ProvenPredicate[] = [
      ...Object.entries(conditions).map(([name, c]) => conditionPredicate(name, c, outcomes[name] === true)),
      ...params.map((p) => equalsPredicate(p, matchVerifyParams([p], subject).ok)),
    ];
    const issuer = await this.dids.findById(record.issuerDidId);
    if (!issuer?.managedKeyId) throw new Error('credential issuer has no service-held key');
    const statement: ZkpStatement = { credentialId: id, issuer: String(record.document['issuer']), evaluatedAt: now.toISOString(), predicates };
    const signature = bytesToHex(await this.custody.use(actor.tenantId, issuer.managedKeyId, (seed) => ed25519Sign(zkpStatementBytes(statement), seed)));
    // Kept under its signature so a verifier needs only what the interface reference returns
    // (certificate, userSignature as zkpSignature, publicKey): verification looks the statement up.
    await this.credentials.saveZkpStatement({ signatureHex: signature, tenantId: actor.tenantId, credentialId: id, statement: statementJson(statement) });
    const certificate: Certificate = Object.fromEntries(predicates.map((p) => [p.key, p.met]));
    return { certificate, userSignature: signature, publicKey: bytesToBase64(hexToBytes(issuer.publicKeyHex)), statement, proofSystem };
  }
}
