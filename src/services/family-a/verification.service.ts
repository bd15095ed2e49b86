import { AppError, invalidInput } from '../../errors';
import type { ProofSystem } from '../../zk/proof-system';
import { parseVerifierChallenge } from '../../zk/challenge';
import type { ZkCertificates } from '../../zk/zk-certificates';
import type { ZkIssuer } from '../../zk/zk-age-tokens';
import { type DocumentLoader, createDocumentLoader } from '../../domain/contexts';
import { ENCRYPTED_TYPE, FAMILY_A_JSONLD_BASE, isCiphertextText, proofCoveredPart, ROOT_KEY_FRAGMENT, subjectOfCredential } from '../../domain/credentials/family-a-credential';
import { framingProblem } from '../../domain/credentials/family-a-pinning';
import { type ChallengeProof, holderProofBytes, parseChallengeProof } from '../../domain/credentials/holder-proof';
import { parseSignatureHex } from '../../domain/credentials/user-signature';
import { type ZkpStatement, certificateOf, parseZkpStatement, zkpStatementBytes } from '../../domain/credentials/zkp-certificate';
import { decodeCryptograph } from '../../domain/cryptograph';
import { bytesToHex, hexToBytes } from '../../domain/encoding';
import { ed25519Verify, parseEd25519PublicKey } from '../../domain/keys';
import type { Clock, FaceEngine, IssuedCredentialRecord, IssuedCredentialRepository, SchemaRepository } from '../../domain/ports';
import { matchVerifyParams, parseVerifyParams } from '../../domain/predicates';
import { verifyEd25519Signature2018 } from '../../domain/proofs';
import { attributeTypesOfBody, parseSchemaBody } from '../../domain/schemas';
import { type CredentialsService, sameSignatureHex } from './credentials.service';
import { boundGalleryTemplate } from './face-binding';
import type { VerifyCredentialABody } from '../../contracts/family-a/verifier';
import type { IssuerDidService } from './issuer-did.service';

export const SUCCESS = 'Success';
export const NO_CHECK = 'No Check Performed';
export const VALID_MESSAGE = 'User is valid, issuer DID is valid and verifiable credential is valid';

export interface VerifyRequest {
  /** Header `publicKey`: the holder's Ed25519 key, base64. */
  readonly publicKey: string;
  /** Header `userSignature`: the signature returned by issuance (static, replayable); optional when the body has `holderProof`. */
  readonly userSignature?: string;
  /**
   * Body: `credentials` (the credential) or `cryptograph` (its QR-ready text), `verifyParams`,
   * `zkpCertificate`, `holderProof` ({ nonce, signature }): the operation's shape (REST checked the
   * body against it, GraphQL's arguments have it); the rules are checked here.
   */
  readonly body: VerifyCredentialABody;
  readonly zkpValidation: boolean;
  /** A selfie to compare with the credential's bound face (multipart / GraphQL upload). */
  readonly probePhoto?: Uint8Array;
  /** The verifier's tenant: only the issuer's own tenant learns which credential superseded one. */
  readonly verifierTenantId?: string;
}

/** The decision of a biometric check; no distance or score leaves the service. */
export interface BiometricDecision {
  readonly match: boolean;
  /** The configured euclidean-distance threshold (CREDGATE_FACE_THRESHOLD), not a measurement. */
  readonly threshold: number;
}

/**
 * How the holder was proven: CHALLENGE_BOUND (a fresh signature over the verifier's nonce and the
 * credential id), STATIC_REPLAYABLE (only the issuance-time userSignature, which anyone who has
 * seen it can present), or NONE (no holder proof verified).
 */
export type HolderProofKind = 'CHALLENGE_BOUND' | 'STATIC_REPLAYABLE' | 'NONE';

export interface VerificationData {
  readonly isVCValid: string;
  readonly isIssuerDIDValid: string;
  readonly biometricMatchScore: string;
  readonly zkpMessage: Record<string, boolean> | null;
  /** With zkpValidation and a valid certificate: whether every proven condition holds; else null. */
  readonly zkpConditionsMet: boolean | null;
  /** With zkpValidation and a valid certificate: exactly what it proves (predicates, evaluation time, credential). */
  readonly zkpResult: ZkpStatement | null;
  /** Present when a biometric check ran: match or no match only. */
  readonly biometricMatch?: BiometricDecision;
  readonly holderProof: HolderProofKind;
  /** Every failed check, in words; empty when valid. */
  readonly reasons: string[];
  /** With zkpValidation: which proof system the certificate used (attestation or bbs-bulletproofs). */
  readonly proofSystem?: ProofSystem;
}

export interface VerificationResult {
  readonly success: boolean;
  readonly message: string;
  readonly data: VerificationData;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The same keys with the same booleans (order-insensitive). */
function sameCertificate(given: unknown, proven: Record<string, boolean>): boolean {
  if (!isObject(given)) return false;
  const keys = Object.keys(given);
  return keys.length === Object.keys(proven).length && keys.every((k) => Object.hasOwn(proven, k) && given[k] === proven[k]);
}

/**
 * POST /verifier/verify. An invalid credential is an answer (success false with reasons), never an
 * exception; only malformed requests are errors. Credential status lookups span tenants because
 * the verifier is usually not the issuer.
 */
export class VerificationService {
  private readonly loader: DocumentLoader = createDocumentLoader();

  constructor(
    private readonly faces: FaceEngine,
    private readonly issuers: IssuerDidService,
    private readonly credentials: IssuedCredentialRepository,
    private readonly schemas: SchemaRepository,
    private readonly issuance: CredentialsService,
    private readonly clock: Clock,
    private readonly zk?: ZkCertificates,
  ) {}

  /** Whether a request asks for a zero-knowledge check (then no credential or holder key is needed). */
  static isZk(zkpValidation: boolean, body: VerifyCredentialABody): boolean {
    return zkpValidation && body.zkpCertificate?.['proofSystem'] === 'bbs-bulletproofs';
  }

  async verify(req: VerifyRequest): Promise<VerificationResult> {
    if (VerificationService.isZk(req.zkpValidation, req.body)) return this.verifyZk(req.body, req.verifierTenantId ?? 'anonymous');
    const holderKey = parseEd25519PublicKey(req.publicKey, 'publicKey');
    if (req.userSignature !== undefined) parseSignatureHex(req.userSignature);
    const { credentials, cryptograph, verifyParams, zkpCertificate, probeTemplate, holderProof } = req.body;
    const challenge = holderProof === undefined || holderProof === null ? undefined : parseChallengeProof(holderProof);
    if (req.userSignature === undefined && !challenge) {
      throw invalidInput('give the userSignature header or a holderProof { nonce, signature }', [{ field: 'userSignature', message: 'required without holderProof' }]);
    }
    if (probeTemplate !== undefined && req.probePhoto !== undefined) throw invalidInput('give either probeTemplate or a selfie photo, not both');
    if (probeTemplate !== undefined) this.assertProbeTemplate(probeTemplate);
    if (req.zkpValidation && zkpCertificate === undefined) throw invalidInput('zkpValidation=true needs zkpCertificate', [{ field: 'zkpCertificate', message: 'required object' }]);

    const reasons: string[] = [];
    const issuerReasons: string[] = [];
    const { credential, cryptographCheck } = this.credentialOf(credentials, cryptograph);
    const issuerText = typeof credential['issuer'] === 'string' ? credential['issuer'] : '';
    const issuer = await this.issuers.lookup(issuerText);
    if (!issuer || issuer.role !== 'issuer') issuerReasons.push('issuer DID is unknown');
    else if (issuer.deletedAt !== null) issuerReasons.push('issuer DID has been deleted');

    const issuerKey = issuer && issuer.keyAlgorithm === 'Ed25519' ? hexToBytes(issuer.publicKeyHex) : undefined;
    if (cryptographCheck && (!issuerKey || cryptographCheck.kid !== `${issuerText}#${ROOT_KEY_FRAGMENT}` || !cryptographCheck.verify(issuerKey))) {
      reasons.push('cryptograph signature does not verify');
    }
    const framing = framingProblem(credential);
    if (framing) reasons.push(framing);
    else if (reasons.length === 0) await this.checkProof(credential, issuerText, issuerKey, reasons); // a forged cryptograph is never canonicalised

    const id = typeof credential['id'] === 'string' ? credential['id'] : '';
    // A credential whose signature failed is not looked up at all: its id alone must not reveal
    // whether such a record exists, or its status, holder or successor.
    const signatureOk = reasons.length === 0;
    const found = id && signatureOk ? await this.credentials.findById(id) : null;
    // The proof names the issuer; the record must be that issuer's, or an id collision could borrow another record.
    const record = found && issuer && found.issuerDidId === issuer.id ? found : null;
    if (!record) {
      if (signatureOk) reasons.push('credential was not issued by this service');
    } else if (record.status === 'revoked') reasons.push('credential has been revoked');
    else if (record.status === 'superseded') reasons.push(this.supersededReason(record, req.verifierTenantId));
    this.checkDates(credential, reasons);

    const holderKind = this.holderProofOf(record, holderKey, id, req.userSignature, challenge);
    const isHolder = holderKind !== 'NONE';
    if (record && !isHolder) reasons.push(challenge ? 'publicKey and holderProof do not prove the credential holder' : 'publicKey and userSignature do not prove the credential holder');

    // Everything below reads the issuer's sealed copy or answers about values the verifier does not
    // hold. It runs only for a credential whose proof, status and holder proof all verified, so a
    // forged or borrowed credential learns nothing: right and wrong guesses get the same answer.
    const trusted = reasons.length === 0 && issuerReasons.length === 0 && record !== null && isHolder;
    const untrusted = 'the credential and its holder did not verify';

    let zkpMessage: Record<string, boolean> | null = null;
    let zkpConditionsMet: boolean | null = null;
    let zkpResult: ZkpStatement | null = null;
    if (req.zkpValidation) {
      if (!trusted || !record) reasons.push(`ZKP certificate not checked: ${untrusted}`);
      else {
        const z = await this.checkZkp(zkpCertificate ?? {} /* required above with zkpValidation */, credential, issuerKey, record.userSignature);
        if (z.ok) {
          zkpMessage = z.certificate;
          zkpResult = z.statement;
          const unmet = Object.entries(z.certificate).filter(([, v]) => !v).map(([k]) => k);
          zkpConditionsMet = unmet.length === 0;
          if (unmet.length > 0) reasons.push(`ZKP condition not met: ${unmet.join(', ')}`);
        } else reasons.push(z.reason);
      }
    }
    // Evaluated beside zkpValidation, never instead of it: a certificate must not hide a wrong value.
    if (verifyParams !== undefined && verifyParams.length > 0) {
      if (!trusted || !record) reasons.push(`verifyParams not evaluated: ${untrusted}`);
      else {
        const params = parseVerifyParams(verifyParams, await this.attributeTypes(record));
        const match = matchVerifyParams(params, this.issuance.plainSubject(record));
        if (!match.ok) reasons.push(`verifyParams do not match: ${match.mismatches.join(', ')}`);
      }
    }

    const bio = await this.biometric(trusted ? record : null, credential, probeTemplate as string | undefined, req.probePhoto);
    if (bio.reason) reasons.push(bio.reason);
    const data: VerificationData = {
      isVCValid: reasons.length === 0 ? SUCCESS : `Failed: ${reasons.join('; ')}`,
      isIssuerDIDValid: issuerReasons.length === 0 ? SUCCESS : `Failed: ${issuerReasons.join('; ')}`,
      biometricMatchScore: bio.text,
      zkpMessage,
      zkpConditionsMet,
      zkpResult,
      ...(bio.match ? { biometricMatch: bio.match } : {}),
      holderProof: holderKind,
      reasons: [...issuerReasons, ...reasons],
    };
    const success = data.reasons.length === 0;
    return { success, message: success ? VALID_MESSAGE : `Verification failed: ${data.reasons.join('; ')}`, data };
  }

  /**
   * zkpValidation with a bbs-bulletproofs certificate: the verifier sends the proof (zkpSignature),
   * the issuer's BBS key and its own challenge (`verifierChallenge`), and no credential: the answer
   * is the booleans of the proven conditions, whether the proof verified and whether its issuer is a
   * live issuer DID of this service. A malformed proof is a 400, any other failure a result.
   */
  private async verifyZk(body: VerifyCredentialABody, verifierTenantId: string): Promise<VerificationResult> {
    if (!this.zk) throw new AppError('FEATURE_OFF', 'zero-knowledge certificates are not configured on this service');
    const cert = body.zkpCertificate ?? {}; // isZk found it
    const challenge = parseVerifierChallenge(body.verifierChallenge);
    let publicKey: Uint8Array | null = null;
    if (typeof cert['publicKey'] === 'string') {
      const bytes = Buffer.from(cert['publicKey'], 'base64');
      if (bytes.length !== 96 || bytes.toString('base64') !== cert['publicKey']) throw new AppError('INVALID_PUBLIC_KEY', 'zkpCertificate.publicKey must be the issuer BBS public key (96 bytes, base64)', [{ field: 'zkpCertificate.publicKey', message: 'BLS12-381 G2, base64' }]);
      publicKey = new Uint8Array(bytes);
    }
    let issuerKnown = false;
    const v = await this.zk.verify({
      actorTenantId: verifierTenantId,
      zkpSignature: cert['zkpSignature'],
      publicKey,
      challenge,
      now: this.clock.now(),
      issuerOf: async (did): Promise<ZkIssuer | null> => {
        const rec = await this.issuers.lookup(did);
        issuerKnown = rec !== null && rec.role === 'issuer' && rec.deletedAt === null && rec.managedKeyId !== null;
        return issuerKnown && rec?.managedKeyId ? { tenantId: rec.tenantId, did: rec.did, managedKeyId: rec.managedKeyId } : null;
      },
    });
    const reasons: string[] = [];
    const issuerReasons = issuerKnown ? [] : ['issuer DID is unknown'];
    if (!v.ok) reasons.push(v.reason);
    else if (cert['certificate'] !== undefined && !sameCertificate(cert['certificate'], v.certificate)) reasons.push('the certificate names other conditions than the proof proves');
    const ok = reasons.length === 0 && issuerReasons.length === 0;
    const data: VerificationData = {
      isVCValid: reasons.length === 0 ? SUCCESS : `Failed: ${reasons.join('; ')}`,
      isIssuerDIDValid: issuerReasons.length === 0 ? SUCCESS : `Failed: ${issuerReasons.join('; ')}`,
      biometricMatchScore: NO_CHECK,
      zkpMessage: ok && v.ok ? v.certificate : null,
      zkpConditionsMet: ok ? true : null,
      zkpResult: null,
      holderProof: 'NONE',
      reasons: [...issuerReasons, ...reasons],
      proofSystem: 'bbs-bulletproofs',
    };
    return { success: ok, message: ok ? VALID_MESSAGE : `Verification failed: ${data.reasons.join('; ')}`, data };
  }

  /**
   * The holder is the record's key holder, and every proof given verifies: the static userSignature
   * is compared with the one stored at issuance (no sealed data needed), a challenge proof is an
   * Ed25519 signature over `holderProofBytes('verify', credentialId, nonce)`.
   */
  private holderProofOf(record: IssuedCredentialRecord | null, holderKey: Uint8Array, credentialId: string, userSignature: string | undefined, challenge: ChallengeProof | undefined): HolderProofKind {
    if (!record || bytesToHex(holderKey) !== record.holderPublicKeyHex) return 'NONE';
    if (userSignature !== undefined && !sameSignatureHex(userSignature, record.userSignature)) return 'NONE';
    if (!challenge) return 'STATIC_REPLAYABLE';
    return ed25519Verify(challenge.signature, holderProofBytes('verify', credentialId, challenge.nonce), holderKey) ? 'CHALLENGE_BOUND' : 'NONE';
  }

  /** A successor id is the issuer's business: only its own tenant learns it. */
  private supersededReason(record: IssuedCredentialRecord, verifierTenantId: string | undefined): string {
    return verifierTenantId === record.tenantId && record.supersededById ? `credential has been superseded by ${record.supersededById}` : 'credential has been superseded';
  }

  /** A probe template must be one this service's model can compare; checked before anything else, the same for every credential. */
  private assertProbeTemplate(template: string): void {
    try {
      this.faces.compare(template, template);
    } catch (e) {
      if (e instanceof AppError) throw new AppError('INVALID_INPUT', `probeTemplate: ${e.message}`, [{ field: 'probeTemplate', message: 'not a face template of this service' }]);
      throw e;
    }
  }

  /**
   * Compares a probe (template, or a photo turned into one) with the face bound at issuance, for a
   * verified credential only (`record` is null otherwise). `biometricMatchScore` reads `Match` or
   * `No Match`: the decision distance <= CREDGATE_FACE_THRESHOLD. No distance or score is returned,
   * because a continuous score lets a caller hill-climb the sealed template.
   */
  private async biometric(record: IssuedCredentialRecord | null, presented: Record<string, unknown>, probeTemplate: string | undefined, probePhoto: Uint8Array | undefined): Promise<{ text: string; reason?: string; match?: BiometricDecision }> {
    if (probeTemplate === undefined && probePhoto === undefined) return { text: NO_CHECK };
    if (!record) return { text: 'Not Checked', reason: 'biometric check not performed: the credential and its holder did not verify' };
    const gallery = boundGalleryTemplate(this.issuance.sealedFace(record), presented, record.id);
    if (!gallery) return { text: 'Failed: the credential has no face template', reason: 'the credential has no face template to compare' };
    let probe = probeTemplate;
    if (probePhoto !== undefined) {
      const made = await this.faces.createTemplate(probePhoto);
      if (!made.templateCreationResult) return { text: 'Failed: no face detected in the probe', reason: 'no face detected in the probe photo' };
      probe = made.template;
    }
    const m = this.faces.compare(gallery, probe!);
    const match: BiometricDecision = { match: m.match, threshold: m.threshold };
    return m.match ? { text: 'Match', match } : { text: 'No Match', match, reason: 'the face does not match the bound template' };
  }

  private credentialOf(credentials: unknown, cryptograph: unknown): { credential: Record<string, unknown>; cryptographCheck?: ReturnType<typeof decodeCryptograph> } {
    if (cryptograph !== undefined) {
      if (credentials !== undefined) throw invalidInput('give either credentials or cryptograph, not both');
      const decoded = decodeCryptograph(cryptograph);
      return { credential: decoded.credential, cryptographCheck: decoded };
    }
    if (!isObject(credentials)) throw invalidInput('credentials must be the credential object', [{ field: 'credentials', message: 'required object' }]);
    return { credential: credentials };
  }

  private async checkProof(credential: Record<string, unknown>, issuer: string, issuerKey: Uint8Array | undefined, reasons: string[]): Promise<void> {
    const covered = proofCoveredPart(credential);
    const proof = credential['proof'];
    if (!covered) return void reasons.push('credentialStatus was altered');
    if (!isObject(proof)) return void reasons.push('credential has no proof');
    if (proof['creator'] !== issuer || proof['vcVerificationMethod'] !== `${issuer}#${ROOT_KEY_FRAGMENT}`) {
      return void reasons.push('proof does not name the issuer key');
    }
    if (!issuerKey) return void reasons.push('issuer key cannot be found');
    const types = Array.isArray(credential['type']) ? credential['type'] : [];
    if (types.includes(ENCRYPTED_TYPE) && !Object.values(subjectOfCredential(credential) ?? { x: null }).every(isCiphertextText)) {
      return void reasons.push('an encrypted subject value is not a ciphertext (altered)');
    }
    try {
      const v = await verifyEd25519Signature2018(covered, { publicKey: issuerKey, documentLoader: this.loader, base: FAMILY_A_JSONLD_BASE });
      if (!v.verified) reasons.push('proof signature does not verify (the credential was altered)');
    } catch (e) {
      if (!(e instanceof AppError) || e.code !== 'INVALID_INPUT') throw e; // budgets (413/422/503) are answers, not verdicts
      reasons.push('credential cannot be canonicalized (altered or malformed)');
    }
  }

  private checkDates(credential: Record<string, unknown>, reasons: string[]): void {
    const now = this.clock.now().getTime();
    const issued = Date.parse(String(credential['issuanceDate']));
    const expires = Date.parse(String(credential['expirationDate']));
    if (Number.isNaN(issued) || Number.isNaN(expires)) return void reasons.push('credential dates are malformed');
    if (now < issued) reasons.push('credential is not yet valid');
    if (now > expires) reasons.push('credential has expired');
  }

  /**
   * A ZKP certificate proves what its signed statement says, nothing more: the credential issuer's
   * key signed `zkpStatementBytes(statement)`, the statement names this credential and its issuer,
   * it was not evaluated in the future, and the reference's `certificate` map (when given) is exactly
   * the statement's outcomes. Runs only for a verified, live credential, so revoking a credential
   * makes its certificates fail.
   *
   * The statement is the one the client sends back, or else the one this service stored under the
   * certificate's `zkpSignature` at creation: the interface reference's certificate has no statement
   * field, and the booleans alone would not say which predicate, bounds or time they answer.
   */
  private async checkZkp(cert: Record<string, unknown>, credential: Record<string, unknown>, issuerKey: Uint8Array | undefined, userSignature: string): Promise<{ ok: true; statement: ZkpStatement; certificate: Record<string, boolean> } | { ok: false; reason: string }> {
    const fail = (reason: string) => ({ ok: false as const, reason: `ZKP certificate is invalid: ${reason}` });
    const { zkpSignature, publicKey, userSignature: certUserSig, certificate } = cert;
    if (typeof zkpSignature !== 'string' || !/^[0-9a-fA-F]{128}$/.test(zkpSignature)) return fail('zkpSignature must be 64 bytes of hex');
    const statement = await this.statementOf(cert['statement'], zkpSignature);
    if (typeof statement === 'string') return fail(statement);
    if (typeof publicKey !== 'string') return fail('publicKey is required');
    let key: Uint8Array;
    try {
      key = parseEd25519PublicKey(publicKey, 'zkpCertificate.publicKey');
    } catch {
      return fail('publicKey is not an Ed25519 key');
    }
    if (!issuerKey || bytesToHex(key) !== bytesToHex(issuerKey)) return fail('publicKey is not the issuer key');
    if (certUserSig !== undefined && (typeof certUserSig !== 'string' || !sameSignatureHex(certUserSig, userSignature))) return fail('userSignature is not the one returned at issuance');
    if (!ed25519Verify(hexToBytes(zkpSignature), zkpStatementBytes(statement), key)) return fail('signature does not verify over the statement');
    if (statement.credentialId !== credential['id'] || statement.issuer !== credential['issuer']) return fail('the statement is about another credential');
    if (Date.parse(statement.evaluatedAt) > this.clock.now().getTime()) return fail('evaluatedAt is in the future');
    const proven = certificateOf(statement);
    if (certificate !== undefined && !sameCertificate(certificate, proven)) return fail('certificate differs from the signed statement');
    return { ok: true, statement, certificate: proven };
  }

  /** The statement the client sent, or the one stored under the signature; a reason when neither is usable. */
  private async statementOf(given: unknown, zkpSignature: string): Promise<ZkpStatement | string> {
    if (given !== undefined && given !== null) return parseZkpStatement(given);
    const stored = await this.credentials.findZkpStatement(zkpSignature.toLowerCase());
    if (!stored) return 'zkpSignature names no certificate this service created (send its statement to verify a certificate from elsewhere)';
    return parseZkpStatement(stored.statement);
  }

  private async attributeTypes(record: IssuedCredentialRecord) {
    const schema = await this.schemas.findById(record.schemaId);
    return schema ? attributeTypesOfBody(parseSchemaBody(schema.body)) : {};
  }
}

