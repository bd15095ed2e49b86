import { randomUUID, timingSafeEqual } from 'node:crypto';
import { AppError, notFound } from '../../errors';
import { type DocumentLoader, createDocumentLoader } from '../../domain/contexts';
import { buildUnsignedCredential, FAMILY_A_JSONLD_BASE, proofOptions, ROOT_KEY_FRAGMENT, withCredentialStatus } from '../../domain/credentials/family-a-credential';
import { parseSignatureHex, subjectOfPayload, userSignatureBytes } from '../../domain/credentials/user-signature';
import { encodeCryptograph, cryptographQrPng } from '../../domain/cryptograph';
import { isDidSyntax } from '../../domain/dids/service-did';
import { bytesToHex } from '../../domain/encoding';
import { decryptSubject, encryptSubject, encryptValue } from '../../domain/encryption';
import { ed25519Sign, ed25519Verify, parseEd25519PrivateKey, parseEd25519PublicKey } from '../../domain/keys';
import type { Clock, DidRepository, FaceEngine, IssuedCredentialRecord, IssuedCredentialRepository, SecretBox } from '../../domain/ports';
import { addCalendarPeriod } from '../../domain/predicates';
import { SubjectValidator, type ExpirationUnit } from '../../domain/schemas';
import { signEd25519Signature2018 } from '../../domain/proofs';
import type { Actor } from '../../domain/tenancy/actor';
import { mayActFor } from '../../domain/tenancy/holder-binding';
import { holderKeyOf } from './holder-key';
import { type IssueRequest, parseVcReference } from './issue-request';
import type { IssuerDidService } from './issuer-did.service';
import type { SchemasService } from './schemas.service';

export interface HolderProof {
  readonly did: string;
  readonly publicKey: string;
  readonly userSignature: string;
}

export interface IssueOptions {
  readonly cryptograph?: boolean;
  readonly cryptographPng?: boolean;
}

export interface IssueResult {
  readonly verifiableCredential: Record<string, unknown>;
  readonly userSignature: string;
  readonly cryptograph?: string;
  readonly cryptographPng?: Buffer;
}

export const sealedSubjectContext = (credentialId: string): string => `issued-credential|${credentialId}`;

/**
 * The stored copy of a credential keeps no face template: templates are biometric data and live
 * only in the sealed record (the holder has the full credential).
 */
function withoutFaceTemplate(credential: Record<string, unknown>): Record<string, unknown> {
  const bio = credential['biometrics'] as Record<string, unknown> | undefined;
  return bio?.['face'] ? { ...credential, biometrics: { ...bio, face: '[sealed]' } } : credential;
}

/** Compares two hex signatures without leaking where they differ. */
export function sameSignatureHex(a: string, b: string): boolean {
  const x = Buffer.from(a.toLowerCase());
  const y = Buffer.from(b.toLowerCase());
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Family A issuance: issue, re-issue, revoke; plus the holder-side sign and decrypt helpers. */
export class CredentialsService {
  private readonly validator = new SubjectValidator();
  private readonly loader: DocumentLoader = createDocumentLoader();

  constructor(
    private readonly faces: FaceEngine,
    private readonly issuers: IssuerDidService,
    private readonly schemas: SchemasService,
    private readonly credentials: IssuedCredentialRepository,
    private readonly dids: DidRepository,
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  /**
   * POST /user/sign: the holder's consent. Signs the RFC 8785 canonical JSON of the subject
   * (see `userSignatureBytes`) with the holder's Ed25519 key; nothing is stored.
   */
  signSubject(privateKeyB64: string, issuerDid: string, payload: unknown): string {
    if (!isDidSyntax(issuerDid)) throw new AppError('INVALID_DID', 'issuerDID must be a DID', [{ field: 'issuerDID', message: 'not a DID' }]);
    const seed = parseEd25519PrivateKey(privateKeyB64, 'privateKey');
    try {
      return bytesToHex(ed25519Sign(userSignatureBytes(subjectOfPayload(payload)), seed));
    } finally {
      seed.fill(0);
    }
  }

  /** POST /issuer/verifiableCredential. */
  async issue(actor: Actor, holder: HolderProof, req: IssueRequest, options: IssueOptions = {}): Promise<IssueResult> {
    return this.issueInternal(actor, holder, req, options);
  }

  /** PUT /issuer/verifiableCredential: a new credential; the prior one becomes superseded. */
  async reissue(actor: Actor, holder: HolderProof, req: IssueRequest, vc: unknown, options: IssueOptions = {}): Promise<IssueResult> {
    const { id } = parseVcReference(vc);
    const prior = await this.credentials.findForTenant(actor.tenantId, id);
    if (!prior) throw notFound('credential');
    if (prior.status !== 'issued') throw new AppError('CONFLICT', `credential ${id} is ${prior.status} and cannot be re-issued`);
    if (prior.holderDid !== holder.did) throw new AppError('PUBLIC_KEY_MISMATCH', 'the did header is not the holder of vc', [{ field: 'did', message: 'not the holder' }]);
    return this.issueInternal(actor, holder, req, options, prior);
  }

  /**
   * DELETE /issuer/verifiableCredential. `publicKey` must be the holder's or the issuer's key and
   * `userSignature` its Ed25519 signature over the subject as signed at issuance (the
   * userSignature returned by issuance proves the holder).
   */
  async revoke(actor: Actor, proof: { publicKey: string; userSignature: string }, vc: unknown): Promise<string> {
    const { id } = parseVcReference(vc);
    const record = await this.credentials.findForTenant(actor.tenantId, id);
    // A holder-bound key sees only its holder's credentials; others' look unknown.
    if (!record || !mayActFor(actor, record.holderDid)) throw notFound('credential');
    const key = parseEd25519PublicKey(proof.publicKey, 'publicKey');
    const sig = parseSignatureHex(proof.userSignature);
    const issuer = await this.dids.findById(record.issuerDidId);
    const allowed = [record.holderPublicKeyHex, issuer?.publicKeyHex].filter((k): k is string => !!k);
    if (!allowed.includes(bytesToHex(key))) throw new AppError('FORBIDDEN', 'publicKey is neither the holder nor the issuer of this credential');
    if (!ed25519Verify(sig, userSignatureBytes(this.plainSubject(record)), key)) throw new AppError('INVALID_SIGNATURE', 'userSignature does not verify');
    if (record.status !== 'issued') throw new AppError('CONFLICT', `credential ${id} is already ${record.status}`);
    if (!(await this.credentials.revoke(actor.tenantId, id, this.clock.now()))) throw new AppError('CONFLICT', `credential ${id} is no longer live`);
    return id;
  }

  /** A gallery template must be one this service's model can compare (format and model id). */
  private assertFaceTemplate(template: string): void {
    try {
      this.faces.compare(template, template);
    } catch (e) {
      if (e instanceof AppError) throw new AppError('INVALID_INPUT', `faceTemplate: ${e.message}`, [{ field: 'faceTemplate', message: 'not a face template of this service' }]);
      throw e;
    }
  }

  /** The holder's own decryption (the same computation a holder can do offline). */
  decrypt(privateKeyB64: string, vc: unknown): Record<string, string | number> {
    const { id, credential } = parseVcReference(vc);
    const subject = Array.isArray(credential['credentialSubject']) ? credential['credentialSubject'][0] : credential['credentialSubject'];
    const seed = parseEd25519PrivateKey(privateKeyB64, 'privateKey');
    try {
      return decryptSubject(subject, seed, id);
    } finally {
      seed.fill(0);
    }
  }

  /** The issuer's plaintext copy of a credential's subject (sealed at rest). */
  plainSubject(record: IssuedCredentialRecord): Record<string, unknown> {
    return this.sealedRecord(record).subject;
  }

  /** The gallery face template bound at issuance, if any (sealed with the subject). */
  boundFace(record: IssuedCredentialRecord): string | null {
    return this.sealedRecord(record).face;
  }

  private sealedRecord(record: IssuedCredentialRecord): { subject: Record<string, unknown>; face: string | null } {
    const json = JSON.parse(Buffer.from(this.box.open(record.sealedSubject, sealedSubjectContext(record.id))).toString('utf8')) as Record<string, unknown>;
    // v2 records hold { v: 2, subject, face }; earlier ones were the subject itself.
    if (json['v'] === 2 && typeof json['subject'] === 'object') {
      return { subject: json['subject'] as Record<string, unknown>, face: typeof json['face'] === 'string' ? json['face'] : null };
    }
    return { subject: json, face: null };
  }

  /** The face template as the credential shows it: encrypted to the holder when the subject is. */
  private shownFace(req: IssueRequest, holderKey: Uint8Array, credentialId: string): string | null {
    if (!req.faceTemplate) return null;
    return req.isEncrypted ? encryptValue(req.faceTemplate, holderKey, { attribute: 'biometrics.face', credentialId }) : req.faceTemplate;
  }

  private async issueInternal(actor: Actor, holder: HolderProof, req: IssueRequest, options: IssueOptions, prior?: IssuedCredentialRecord): Promise<IssueResult> {
    const holderKey = await holderKeyOf(this.dids, holder.did, holder.publicKey);
    if (req.faceTemplate !== undefined) this.assertFaceTemplate(req.faceTemplate);
    const signature = parseSignatureHex(holder.userSignature);
    const schema = await this.schemas.forIssuance(actor, req.schemaName);
    const given = req.credentialSubject['id'];
    if (given !== undefined && given !== holder.did) {
      throw new AppError('INVALID_INPUT', 'credentialSubject.id must be the did header', [{ field: 'credentialSubject.id', message: 'differs from did' }]);
    }
    const subject = { ...req.credentialSubject, id: holder.did };
    const checked = this.validator.validate(schema.body, subject);
    if (!checked.ok) throw new AppError('SCHEMA_VALIDATION_FAILED', 'credentialSubject does not match the schema', checked.issues);
    if (!ed25519Verify(signature, userSignatureBytes(subject), holderKey)) {
      throw new AppError('INVALID_SIGNATURE', 'userSignature is not the holder signature over credentialSubject', [{ field: 'userSignature', message: 'does not verify' }]);
    }

    const issuer = await this.issuers.current(actor);
    const now = this.clock.now();
    const exp = schema.body['expiration'] as { value: number; unit: ExpirationUnit };
    const id = `${schema.name}:${schema.version}:${randomUUID()}`;
    const shown = req.isEncrypted ? encryptSubject(subject as Record<string, string | number>, holderKey, id) : subject;
    const unsigned = buildUnsignedCredential({
      id,
      schemaName: schema.name,
      schemaVersion: schema.version,
      schemaUrl: this.schemas.schemaUrl(actor.tenantSlug, schema),
      issuer: issuer.did,
      subject: shown,
      issuanceDate: now,
      expirationDate: addCalendarPeriod(now, exp.value, exp.unit),
      encrypted: req.isEncrypted,
      biometrics: { face: this.shownFace(req, holderKey, id), iris: null, finger: null },
    });
    const { signed, cryptograph } = await this.issuers.sign(actor, issuer, async (seed) => {
      const s = withCredentialStatus(await signEd25519Signature2018(unsigned, { seed, proof: proofOptions(issuer.did, now), documentLoader: this.loader, base: FAMILY_A_JSONLD_BASE }));
      return { signed: s, cryptograph: options.cryptograph || options.cryptographPng ? encodeCryptograph(s, { seed, kid: `${issuer.did}#${ROOT_KEY_FRAGMENT}` }) : undefined };
    });
    await this.credentials.create(
      {
        id,
        tenantId: actor.tenantId,
        schemaId: schema.id,
        issuerDidId: issuer.record.id,
        holderDid: holder.did,
        holderPublicKeyHex: bytesToHex(holderKey),
        userSignature: holder.userSignature.toLowerCase(),
        isEncrypted: req.isEncrypted,
        document: withoutFaceTemplate(signed),
        sealedSubject: this.box.seal(Buffer.from(JSON.stringify({ v: 2, subject, face: req.faceTemplate ?? null }), 'utf8'), sealedSubjectContext(id)),
        expiresAt: new Date(signed['expirationDate'] as string),
      },
      prior ? { tenantId: actor.tenantId, id: prior.id } : undefined,
    );
    return {
      verifiableCredential: signed,
      userSignature: holder.userSignature,
      ...(cryptograph && options.cryptograph ? { cryptograph } : {}),
      ...(cryptograph && options.cryptographPng ? { cryptographPng: await cryptographQrPng(cryptograph) } : {}),
    };
  }
}
