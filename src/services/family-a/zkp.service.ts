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

export interface ZkpCertificateResult {
  readonly certificate: Certificate;
  /** Hex Ed25519 signature by the credential's issuer key over the statement (`zkpStatementBytes`). */
  readonly userSignature: string;
  /** What is proven: each predicate with its bounds, the evaluation time and the credential. */
  readonly statement: ZkpStatement;
  /** The issuer's Ed25519 public key, base64. */
  readonly publicKey: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

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
  ) {}

  /** POST /issuer/createZkp: every key other than `credentials` and `verifyParams` is a condition. */
  async create(actor: Actor, body: unknown): Promise<ZkpCertificateResult> {
    if (!isObject(body)) throw invalidInput('request body must be a JSON object');
    const { credentials, verifyParams, ...conditionInput } = body;
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
    return { certificate, userSignature: signature, publicKey: bytesToBase64(hexToBytes(issuer.publicKeyHex)), statement };
  }
}
