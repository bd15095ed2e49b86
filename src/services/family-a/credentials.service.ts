import { randomUUID, timingSafeEqual } from 'node:crypto';
import { AppError, notFound } from '../../errors';
import { type DocumentLoader, createDocumentLoader } from '../../domain/contexts';
import { buildUnsignedCredential, type FamilyABiometrics, FAMILY_A_JSONLD_BASE, proofOptions, ROOT_KEY_FRAGMENT, withCredentialStatus } from '../../domain/credentials/family-a-credential';
import { holderProofBytes } from '../../domain/credentials/holder-proof';
import { consentBytes, parseConsentSchemaName, parseSignatureHex, subjectOfPayload, userSignatureBytes } from '../../domain/credentials/user-signature';
import { encodeCryptograph, cryptographQrPng } from '../../domain/cryptograph';
import { isDidSyntax } from '../../domain/dids/service-did';
import { bytesToHex } from '../../domain/encoding';
import { decryptSubjectYielding, encryptSubject, encryptedSubjectEntries } from '../../domain/encryption';
import { ed25519Sign, ed25519Verify, parseEd25519PrivateKey, parseEd25519PublicKey } from '../../domain/keys';
import type { Clock, DidRepository, FaceEngine, IssuedCredentialRecord, IssuedCredentialRepository, SecretBox } from '../../domain/ports';
import { addCalendarPeriod } from '../../domain/predicates';
import { SubjectValidator, type ExpirationUnit } from '../../domain/schemas';
import { signEd25519Signature2018 } from '../../domain/proofs';
import { type Actor, hasAnyScope } from '../../domain/tenancy/actor';
import { DependantCredentials } from './dependant-credentials';
import { type SealedFace, newFaceSalt, shownFaceCommitment } from './face-binding';
import { isHolderBound, mayActFor } from '../../domain/tenancy/holder-binding';
import { holderKeyOf } from './holder-key';
import { type IssueRequest, parseVcReference } from './issue-request';
import type { IssuerDidService } from './issuer-did.service';
import type { SchemasService } from './schemas.service';
import { sealedSubjectContext } from '../../domain/credentials/sealed-subject';

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

export { sealedSubjectContext };

/** The QR image of a cryptograph when the caller asked for it (throws INVALID_INPUT when it cannot fit). */
async function renderCryptographPng(cryptograph: string | undefined, options: IssueOptions): Promise<Buffer | undefined> {
  return cryptograph && options.cryptographPng ? cryptographQrPng(cryptograph) : undefined;
}

/** Compares two hex signatures without leaking where they differ. */
export function sameSignatureHex(a: string, b: string): boolean {
  const x = Buffer.from(a.toLowerCase());
  const y = Buffer.from(b.toLowerCase());
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The schema names a consent for this issuance may be bound to: `<name>`, `<name>:<version>` or
 * none (the interface reference's POST /user/sign has no schemaName). Each is one Ed25519
 * verification (the costliest step of an issue on the event loop), tried until one verifies, so
 * the likeliest go first: the spelling the issue request uses (what API.md's flow signs), then
 * the unbound consent reference clients send, then the other spelling. The order never changes
 * which consents are accepted: all three are tried before a refusal.
 */
export function consentSchemaNames(schema: { readonly name: string; readonly version: number }, requested: string): (string | null)[] {
  const spelled = [schema.name, `${schema.name}:${schema.version}`];
  const first = spelled.includes(requested) ? requested : schema.name;
  return [first, null, ...spelled.filter((s) => s !== first)];
}

/**
 * The issuer's own authority over its credentials: the issuer scope (or admin) of a key that is
 * not bound to a holder. Bound keys cannot carry the issuer scope; checked anyway, so a binding
 * always narrows.
 */
function isIssuerAuthority(actor: Actor): boolean {
  return hasAnyScope(actor, ['issuer']) && !isHolderBound(actor);
}

/** Family A issuance: issue, re-issue, revoke; plus the holder-side sign and decrypt helpers. */
export class CredentialsService {
  private readonly validator = new SubjectValidator();
  private readonly loader: DocumentLoader = createDocumentLoader();
  private readonly dependants: DependantCredentials;

  constructor(
    private readonly faces: FaceEngine,
    private readonly issuers: IssuerDidService,
    private readonly schemas: SchemasService,
    private readonly credentials: IssuedCredentialRepository,
    private readonly dids: DidRepository,
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {
    this.dependants = new DependantCredentials(credentials, dids, clock);
  }

  /**
   * POST /user/sign: the holder's consent. Signs `consentBytes`: the subject bound to the issuer
   * DID and, when given, the schema name, with the holder's Ed25519 key; nothing is stored.
   */
  signSubject(privateKeyB64: string, issuerDid: string, payload: unknown, schemaName?: unknown): string {
    if (!isDidSyntax(issuerDid)) throw new AppError('INVALID_DID', 'issuerDID must be a DID', [{ field: 'issuerDID', message: 'not a DID' }]);
    const binding = { issuerDid, schemaName: parseConsentSchemaName(schemaName) };
    const subject = subjectOfPayload(payload);
    const seed = parseEd25519PrivateKey(privateKeyB64, 'privateKey');
    try {
      return bytesToHex(ed25519Sign(consentBytes(subject, binding), seed));
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
   * DELETE /issuer/verifiableCredential. `publicKey` must be the holder's or the issuer's key.
   *
   * - The issuer's authority: a caller with the issuer scope of the credential's tenant (the record
   *   is looked up in its tenant only) revokes with the headers the interface reference names, the
   *   holder's `publicKey` and the `userSignature` returned at issuance. That signature only says
   *   which issuance is meant; it is compared with the stored one in constant time. An issuer must
   *   be able to revoke what it issued (fraud, error, death) without the holder's cooperation.
   * - The holder (any other scope, e.g. a holder key): `userSignature` must be a fresh revocation
   *   proof (`holderProofBytes('revoke', id)`, see POST /user/holderProof), because the issuance-time
   *   userSignature is known to the issuer and every verifier it was shown to. An issuer-scoped
   *   caller may send that proof too.
   * - The issuer's key as `publicKey`: its signature over the subject.
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
    const isHolderKey = bytesToHex(key) === record.holderPublicKeyHex;
    if (!this.mayRevoke(actor, record, isHolderKey, key, sig, proof.userSignature)) {
      const issuerAuthority = isIssuerAuthority(actor);
      const message = !isHolderKey
        ? 'userSignature does not verify'
        : issuerAuthority
          ? 'userSignature is neither the issuance userSignature nor a holder revocation proof for this credential'
          : 'userSignature is not the holder revocation proof for this credential';
      throw new AppError('INVALID_SIGNATURE', message);
    }
    if (record.status !== 'issued') throw new AppError('CONFLICT', `credential ${id} is already ${record.status}`);
    if (!(await this.credentials.revoke(actor.tenantId, id, this.clock.now()))) throw new AppError('CONFLICT', `credential ${id} is no longer live`);
    return id;
  }

  /** The revocation rules of `revoke`, once the record is the caller's and the key is the holder's or the issuer's. */
  private mayRevoke(actor: Actor, record: IssuedCredentialRecord, isHolderKey: boolean, key: Uint8Array, sig: Uint8Array, userSignature: string): boolean {
    if (!isHolderKey) return ed25519Verify(sig, userSignatureBytes(this.plainSubject(record)), key);
    if (isIssuerAuthority(actor) && sameSignatureHex(userSignature, record.userSignature)) return true;
    return ed25519Verify(sig, holderProofBytes('revoke', record.id), key);
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

  /**
   * The holder's own decryption (the same computation a holder can do offline). The subject's size
   * is checked before any key work, and the decryption yields to the event loop between slices.
   */
  async decrypt(privateKeyB64: string, vc: unknown): Promise<Record<string, string | number>> {
    const { id, credential } = parseVcReference(vc);
    const subject = Array.isArray(credential['credentialSubject']) ? credential['credentialSubject'][0] : credential['credentialSubject'];
    encryptedSubjectEntries(subject);
    const seed = parseEd25519PrivateKey(privateKeyB64, 'privateKey');
    try {
      return await decryptSubjectYielding(subject, seed, id);
    } finally {
      seed.fill(0);
    }
  }

  /** The issuer's plaintext copy of a credential's subject (sealed at rest). */
  plainSubject(record: IssuedCredentialRecord): Record<string, unknown> {
    return this.sealedRecord(record).subject;
  }

  /**
   * The face bound at issuance, if any (sealed with the subject). Verification passes it to
   * `boundGalleryTemplate` (face-binding.ts) together with the presented credential.
   */
  sealedFace(record: IssuedCredentialRecord): SealedFace | null {
    return this.sealedRecord(record).face;
  }

  private sealedRecord(record: IssuedCredentialRecord): { subject: Record<string, unknown>; face: SealedFace | null } {
    const json = JSON.parse(Buffer.from(this.box.open(record.sealedSubject, sealedSubjectContext(record.id))).toString('utf8')) as Record<string, unknown>;
    // v3: { v: 3, subject, face: { template, salt } | null }; v2: { v: 2, subject, face: template | null }
    // (no commitment); earlier records were the subject itself.
    if (json['v'] === 3 && typeof json['subject'] === 'object') {
      const face = json['face'] as { template?: unknown; salt?: unknown } | null;
      const bound = face && typeof face.template === 'string' && typeof face.salt === 'string' ? { template: face.template, salt: face.salt } : null;
      return { subject: json['subject'] as Record<string, unknown>, face: bound };
    }
    if (json['v'] === 2 && typeof json['subject'] === 'object') {
      return { subject: json['subject'] as Record<string, unknown>, face: typeof json['face'] === 'string' ? { template: json['face'], salt: null } : null };
    }
    return { subject: json, face: null };
  }

  /**
   * The face the new credential binds, with a fresh commitment salt: the request's template; on
   * re-issue the prior credential's face unless the request gives another or `faceTemplate: null`.
   */
  private faceToBind(req: IssueRequest, prior: IssuedCredentialRecord | undefined): SealedFace | null {
    if (typeof req.faceTemplate === 'string') return { template: req.faceTemplate, salt: newFaceSalt() };
    if (req.faceTemplate === null || !prior) return null;
    const kept = this.sealedFace(prior);
    return kept ? { template: kept.template, salt: newFaceSalt() } : null;
  }

  /**
   * `biometrics` as the credential shows it: a salted commitment to the face, never the template
   * (face-binding.ts). A re-issued credential shows `{}` as the reference's update response does.
   */
  private shownBiometrics(face: SealedFace | null, credentialId: string, reissue: boolean): FamilyABiometrics {
    return reissue ? {} : { face: shownFaceCommitment(face, credentialId), iris: null, finger: null };
  }

  private async issueInternal(actor: Actor, holder: HolderProof, req: IssueRequest, options: IssueOptions, prior?: IssuedCredentialRecord): Promise<IssueResult> {
    const holderKey = await holderKeyOf(this.dids, holder.did, holder.publicKey);
    if (typeof req.faceTemplate === 'string') this.assertFaceTemplate(req.faceTemplate);
    const signature = parseSignatureHex(holder.userSignature);
    const schema = await this.schemas.forIssuance(actor, req.schemaName);
    await this.dependants.check(actor, schema, holder.did, req.dependantVerifiableCredential);
    const given = req.credentialSubject['id'];
    if (given !== undefined && given !== holder.did) {
      throw new AppError('INVALID_INPUT', 'credentialSubject.id must be the did header', [{ field: 'credentialSubject.id', message: 'differs from did' }]);
    }
    const subject = { ...req.credentialSubject, id: holder.did };
    const checked = this.validator.validate(schema.body, subject);
    if (!checked.ok) throw new AppError('SCHEMA_VALIDATION_FAILED', 'credentialSubject does not match the schema', checked.issues);
    // Consent must name this issuer, and the schema when the holder named one (name or name:version).
    // Checked against the existing issuer DID before one is created: a tenant without an issuer DID
    // cannot hold valid consent (its DID's key is random), so a refused request creates nothing.
    const current = await this.issuers.existing(actor);
    const bindings = current ? consentSchemaNames(schema, req.schemaName).map((schemaName) => ({ issuerDid: current.did, schemaName })) : [];
    if (!bindings.some((b) => ed25519Verify(signature, consentBytes(subject, b), holderKey))) {
      throw new AppError('INVALID_SIGNATURE', 'userSignature is not the holder signature over credentialSubject for this issuer DID and schema', [{ field: 'userSignature', message: 'does not verify' }]);
    }
    const issuer = current!;

    const now = this.clock.now();
    const exp = schema.body['expiration'] as { value: number; unit: ExpirationUnit };
    const id = `${schema.name}:${schema.version}:${randomUUID()}`;
    const face = this.faceToBind(req, prior);
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
      biometrics: this.shownBiometrics(face, id, prior !== undefined),
    });
    const { signed, cryptograph } = await this.issuers.sign(actor, issuer, async (seed) => {
      const s = withCredentialStatus(await signEd25519Signature2018(unsigned, { seed, proof: proofOptions(issuer.did, now), documentLoader: this.loader, base: FAMILY_A_JSONLD_BASE }));
      return { signed: s, cryptograph: options.cryptograph || options.cryptographPng ? encodeCryptograph(s, { seed, kid: `${issuer.did}#${ROOT_KEY_FRAGMENT}` }) : undefined };
    });
    // Rendered before anything is stored: a cryptograph too large for a QR code is a 400 that leaves no row behind.
    const cryptographPng = await renderCryptographPng(cryptograph, options);
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
        document: signed,
        sealedSubject: this.box.seal(Buffer.from(JSON.stringify({ v: 3, subject, face }), 'utf8'), sealedSubjectContext(id)),
        expiresAt: new Date(signed['expirationDate'] as string),
      },
      prior ? { tenantId: actor.tenantId, id: prior.id } : undefined,
    );
    return {
      verifiableCredential: signed,
      userSignature: holder.userSignature,
      ...(cryptograph && options.cryptograph ? { cryptograph } : {}),
      ...(cryptographPng ? { cryptographPng } : {}),
    };
  }
}
