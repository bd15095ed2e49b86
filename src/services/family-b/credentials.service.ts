import { randomUUID } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { AppError, invalidInput, notFound } from '../../errors';
import { canonicalBytes } from '../../domain/canonical';
import { isoSeconds } from '../../domain/credentials/family-a-credential';
import { checkSubject, credentialHash, familyBShapeProblem, familyBValidityProblem, signFamilyBCredential, subjectOf, verifyFamilyBSignature } from '../../domain/credentials/family-b-credential';
import { signDetachedEs256k } from '../../domain/credentials/es256k-detached';
import { formatDocumentId, parseServiceDid } from '../../domain/dids/service-did';
import { bytesToHex, hexToBytes } from '../../domain/encoding';
import { verifyInclusion } from '../../domain/merkle';
import { createSdCredentialPayload } from '../../domain/presentations';
import type { Clock, DidRecord, DidRepository, FamilyBCredentialRecord, KeyCustody } from '../../domain/ports';
import { Bitstring, buildStatusListCredential, buildStatusListEntry, encodeList, parseStatusListIndex } from '../../domain/status-list';
import { addExpiration, isDid, validateTemplateSubject, type TemplateAttribute, type TemplateExpiration } from '../../domain/templates';
import type { Actor } from '../../domain/tenancy/actor';
import { mayActFor } from '../../domain/tenancy/holder-binding';
import type { PrismaCredentialRepository, StatusBit } from '../../db/repositories/credential.repository';
import type { Ledger } from '../../ledger/ledger.port';
import type { AnchorService } from '../../anchor/anchor.service';
import type { RevocationListener } from '../token-status-list.service';
import type { IssuedElsewhere } from '../issued-elsewhere';
import type { AnchorStatus } from '../../anchor/anchor.port';
import type { TemplatesService } from './templates.service';
import { isCredentialId, isUuid } from './ids';
import { BbsTemplateCredentials } from './bbs-template-credentials';
import { bbsStatusListId } from '../../formats/bbs-2023/template-credential';
import type { StatusListSource } from '../../vc/ports';
import type { IssueInput } from '../../contracts/family-b/credentials';

export type Json = Record<string, unknown>;

export interface VerificationCheck {
  readonly check: 'format' | 'signature' | 'disclosures' | 'ledger' | 'witnesses' | 'status' | 'expiry';
  readonly ok: boolean;
  readonly detail?: string;
}

/** Everything a client needs to check the anchoring itself (see docs/API.md). */
export interface CredentialAnchor {
  readonly logId: string;
  readonly leafIndex: number;
  readonly treeSize: number;
  readonly entryHash: string;
  readonly inclusionProof: string[];
  readonly checkpoint: string;
  readonly logPublicKey: string;
  /** Witness cosignatures of that checkpoint that verified (their lines are in `checkpoint`). */
  readonly witnessCosignatures: number;
  /** Cosignatures the deployment requires (0: no witnesses configured). */
  readonly witnessQuorum: number;
  /** Anchoring of this checkpoint on the external ledger, its receipt re-checked; absent with CREDGATE_ANCHOR=none. */
  readonly anchoring?: AnchorStatus;
}

export interface CredentialVerification {
  readonly verified: boolean;
  readonly checks: VerificationCheck[];
  readonly anchor?: CredentialAnchor;
}

/** A credential as GET /credentials/{id} answers it: the document, and its status outside it. */
export interface FetchedCredential {
  readonly document: Json;
  readonly status: 'issued' | 'revoked';
  /** ISO 8601 UTC instant of the revocation; null while issued. */
  readonly revokedAt: string | null;
}

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const STATUS_PATH = '/status/';

/** A status entry as this service reads it: its list here (null: not a list of this service) and the bit index (undefined: malformed). */
interface StatusTarget {
  readonly listId: string | null;
  readonly index: number | undefined;
}

/** Family B credentials: issued from templates, anchored in the issuer's log, revocable by status list. */
export class FamilyBCredentialsService {
  /** Status lists being signed right now, so concurrent readers of a changed list share one signature. */
  private readonly signing = new Map<string, Promise<Json>>();
  /** Templates with proofSuite bbs-2023 (issue 18): issued, fetched and verified there. */
  private readonly bbs: BbsTemplateCredentials;

  constructor(
    private readonly credentials: PrismaCredentialRepository,
    private readonly templates: TemplatesService,
    private readonly dids: DidRepository,
    private readonly custody: KeyCustody,
    private readonly ledger: Ledger,
    private readonly clock: Clock,
    private readonly publicUrl: string,
    private readonly anchors?: AnchorService,
    /** Token status lists the credential is also in (issue 21): flipped after the status bit. */
    private readonly revocations?: RevocationListener,
    /** Credentials other issuers of this service delivered (OpenID4VCI), revocable through this route too. */
    private readonly elsewhere?: IssuedElsewhere,
  ) {
    this.bbs = new BbsTemplateCredentials(credentials, dids, custody, publicUrl + STATUS_PATH, clock);
  }

  /** POST /credentials `{ templateId, credentialSubject, holder? }`. */
  async issue(actor: Actor, body: IssueInput): Promise<Json> {
    if (!isObject(body)) throw invalidInput('request body must be a JSON object');
    const { templateId, credentialSubject, holder } = body;
    if (typeof templateId !== 'string') throw invalidInput('templateId is required', [{ field: 'templateId', message: 'required string' }]);
    if (holder !== undefined && !isDid(holder)) throw invalidInput('holder must be a DID', [{ field: 'holder', message: 'not a DID' }]);
    const template = await this.templates.forIssuance(actor, templateId);
    const checked = validateTemplateSubject(template.attributes as TemplateAttribute[], credentialSubject);
    if (!checked.ok) throw new AppError('SCHEMA_VALIDATION_FAILED', 'credentialSubject does not match the template', checked.issues);
    const { id: subjectId, ...values } = checked.value;
    if (holder !== undefined && subjectId !== undefined && holder !== subjectId) throw invalidInput('holder and credentialSubject.id differ');
    const holderDid = (holder ?? subjectId ?? null) as string | null;

    const issuer = await this.dids.findById(template.issuerDidId);
    if (!issuer || issuer.deletedAt !== null || issuer.keyAlgorithm !== 'secp256k1' || !issuer.managedKeyId) {
      throw new AppError('INVALID_INPUT', 'the template issuer must be a DID whose secp256k1 private key this tenant holds (GET /generate-keypair, then POST /dids)', [{ field: 'templateId', message: 'issuer key not held' }]);
    }
    const statusListId = await this.credentials.ensureStatusList(actor.tenantId, issuer.id);
    const now = this.clock.now();
    // Each credential lives the template's period from its own issuance (not until the template's date).
    const expires = addExpiration(now, template.expiration as TemplateExpiration);
    if (template.proofSuite === 'bbs-2023') {
      return this.bbs.issue({ tenantId: actor.tenantId, template, issuer, statusListId, statusListUrl: this.bbs.statusListUrl(statusListId), holder: holderDid, values, now, expires });
    }
    // Everything that does not depend on the status slot is made here, before the tick: the tick
    // holds the issuer's list locked while it builds, so it should only sign. A subject that
    // cannot be disclosed fails here, outside any tick.
    const id = `urn:uuid:${randomUUID()}`;
    const sd = createSdCredentialPayload(values);
    const record = await this.custody.use(actor.tenantId, issuer.managedKeyId, (sk) =>
      this.credentials.issue({ tenantId: actor.tenantId, templateId: template.id, issuerDidId: issuer.id, statusListId, logId: issuer.topicId }, (statusIndex) => {
        const document = signFamilyBCredential(
          {
            id,
            templateName: template.name,
            issuer: issuer.did,
            holder: holderDid,
            issuanceDate: isoSeconds(now),
            expirationDate: isoSeconds(expires),
            values,
            credentialStatus: { ...buildStatusListEntry({ listCredentialUrl: this.statusListUrl(statusListId), index: statusIndex, purpose: 'revocation' }) },
            verificationMethod: `${formatDocumentId(issuer.did, issuer.ledgerFileId)}#keys-1`,
            created: isoSeconds(now),
            sd,
          },
          sk,
        );
        const hash = credentialHash(document);
        return { id, document, credentialHash: hash, holder: holderDid, expiresAt: expires, anchor: { logId: issuer.topicId, entryHash: hash, kind: 'credential', ref: id } };
      }),
    );
    return record.document;
  }

  /**
   * GET /credentials/{id}: the signed document exactly as issued (every member is covered by the
   * proof and the ledger hash, so nothing is added to it), and its status beside it.
   */
  async fetch(actor: Actor, id: string): Promise<FetchedCredential> {
    const r = await this.own(actor, id);
    // A bbs-2023 template credential is stored without its proof: its holder gets a fresh base proof.
    const document = BbsTemplateCredentials.isStored(r.document) ? await this.bbs.signStored(r.document, r.issuerDidId) : r.document;
    return { document, status: r.status, revokedAt: r.revokedAt ? r.revokedAt.toISOString() : null };
  }

  /**
   * DELETE /credentials/{id}: sets the status bit and anchors the revocation. Idempotent. An id
   * that is no Family B credential but one the OpenID4VCI issuer delivered revokes that one
   * (its status list entries flip); anything else is 404.
   */
  async revoke(actor: Actor, id: string): Promise<{ id: string; status: 'revoked'; revokedAt: string }> {
    const issuerOf = async (r: FamilyBCredentialRecord) => (await this.dids.findById(r.issuerDidId))!;
    const found = isCredentialId(id) ? await this.credentials.findForTenant(actor.tenantId, id) : null;
    if (!found && this.elsewhere) {
      const other = await this.elsewhere.revoke(actor, id);
      if (other) return other;
    }
    const record = await this.own(actor, id);
    const issuer = await issuerOf(record);
    const revoked = await this.credentials.revoke({ tenantId: actor.tenantId, id, statusListId: record.statusListId, at: this.clock.now() }, (r) => ({
      logId: issuer.topicId,
      entryHash: sha256(canonicalBytes({ type: 'revocation', credentialId: r.id, credentialHash: bytesToHex(r.credentialHash), revokedAt: r.revokedAt?.toISOString() })),
      kind: 'revocation',
      ref: r.id,
    }));
    if (!revoked) throw notFound('credential');
    // After the batch committed: a failure here fails the request, and DELETE is idempotent, so a retry flips the rest.
    await this.revocations?.credentialRevoked(actor.tenantId, record.id);
    return { id, status: 'revoked', revokedAt: revoked.revokedAt!.toISOString() };
  }

  /** POST /credentials/verify. Every check runs; `verified` is their conjunction. Never throws for a bad credential. */
  async verify(credential: unknown): Promise<CredentialVerification> {
    if (!isObject(credential)) throw invalidInput('credential must be an object', [{ field: 'credential', message: 'required object' }]);
    if (BbsTemplateCredentials.claims(credential)) {
      const bbsChecks = await this.bbs.verify(credential, this.clock.now(), (vc, issuer) => this.statusCheck(vc, issuer));
      return { verified: bbsChecks.every((c) => c.ok), checks: bbsChecks };
    }
    const checks: VerificationCheck[] = [];
    const add = (check: VerificationCheck['check'], ok: boolean, detail?: string) => checks.push({ check, ok, ...(detail ? { detail } : {}) });
    const issuer = await this.issuerRecord(credential['issuer']);
    const shape = familyBShapeProblem(credential);
    add('format', !shape && !!issuer, shape ?? (issuer ? undefined : 'issuer is not a DID of this service'));

    const signed = this.issuerSigned(credential, issuer);
    add('signature', signed, signed ? undefined : 'the issuer signature does not verify for this content');
    const disclosed = checkSubject(credential, { all: true });
    add('disclosures', disclosed.ok, disclosed.ok ? undefined : disclosed.reason);

    let anchor: CredentialAnchor | undefined;
    const target = this.statusTarget(credential);
    let bit: StatusBit | null = null;
    if (issuer) {
      const hash = credentialHash(credential);
      // The leaf and the status bit in one round trip (issue 19); the bit is still read fresh.
      const reads = await this.credentials.verificationReads(issuer.topicId, hash, target?.listId ? { listId: target.listId, index: target.index ?? -1 } : null);
      bit = reads.bit;
      const entry = reads.entry;
      if (entry) {
        const cp = await this.ledger.checkpoint(issuer.topicId, entry.leafIndex + 1);
        const proof = await this.ledger.inclusionProof(issuer.topicId, entry.leafIndex, cp.treeSize);
        const ok = verifyInclusion(Buffer.from(entry.leafHash, 'base64'), entry.leafIndex, cp.treeSize, proof.map((p) => Buffer.from(p, 'base64')), Buffer.from(cp.rootHash, 'base64'));
        const anchoring = this.anchors?.enabled ? await this.anchors.status(issuer.topicId, cp.treeSize, { check: true }) : null;
        anchor = {
          logId: issuer.topicId,
          leafIndex: entry.leafIndex,
          treeSize: cp.treeSize,
          entryHash: bytesToHex(hash),
          inclusionProof: proof,
          checkpoint: cp.note,
          logPublicKey: cp.publicKey,
          witnessCosignatures: cp.witnessCosignatures,
          witnessQuorum: cp.witnessQuorum,
          ...(anchoring ? { anchoring } : {}),
        };
        // A receipt the ledger contradicts fails the check; pending or unreadable anchors do not.
        const contradicted = anchoring?.check?.status === 'invalid' ? `the anchor receipt does not match the ledger: ${anchoring.check.reason}` : undefined;
        add('ledger', ok && !contradicted, ok ? contradicted : 'inclusion proof does not match the signed checkpoint');
        // Only with witnesses configured: without a quorum the log operator alone vouches for this head.
        if (cp.witnessQuorum > 0) {
          const met = cp.witnessCosignatures >= cp.witnessQuorum;
          add('witnesses', met, `${cp.witnessCosignatures} of ${cp.witnessQuorum} required witness cosignatures verified${met ? '' : ' (the head is not, or not yet, witnessed)'}`);
        }
      } else add('ledger', false, 'credential hash is not anchored in the issuer log');
    } else add('ledger', false, 'unknown issuer');

    add('status', ...this.statusVerdict(target, bit, issuer));
    const validity = familyBValidityProblem(credential, this.clock.now());
    add('expiry', !validity, validity ?? undefined);
    return { verified: checks.every((c) => c.ok), checks, ...(anchor ? { anchor } : {}) };
  }

  /** GET /status/{listId}/bbs-2023: the list as bbs-2023 template credentials name it (BbsTemplateCredentials). */
  async bbsStatusListCredential(listId: string): Promise<Json> {
    const list = isUuid(listId) ? await this.bbs.statusListCredential(listId) : null;
    if (!list) throw notFound('status list');
    return list;
  }

  /** Where the VC-API verifier reads status lists: this service's bbs-2023 publications here, the rest from `other`. */
  statusSource(other: StatusListSource): StatusListSource {
    return this.bbs.statusSource(other);
  }

  /**
   * The public BitstringStatusListCredential, signed by the issuer (detached ES256K JWS over its
   * JCS). Public and keyless, so it must be cheap: the signed document is stored with the list
   * version it covers and served as is; the key is unsealed only when the bits changed (a
   * revocation) since the last signature, once per process for concurrent readers. `validFrom`
   * is the time of that signature, so it moves with revocations only, never with issuance.
   */
  async statusListCredential(listId: string): Promise<Json> {
    if (!isUuid(listId)) throw notFound('status list');
    const cached = await this.credentials.signedStatusList(listId);
    if (cached) return cached;
    const pending = this.signing.get(listId);
    if (pending) return pending;
    const work = this.signStatusList(listId).finally(() => this.signing.delete(listId));
    this.signing.set(listId, work);
    return work;
  }

  private async signStatusList(listId: string): Promise<Json> {
    const list = await this.credentials.statusList(listId);
    if (!list) throw notFound('status list');
    const issuer = (await this.dids.findById(list.issuerDidId))!;
    const now = isoSeconds(this.clock.now());
    const doc = buildStatusListCredential({
      id: this.statusListUrl(list.id),
      issuer: issuer.did,
      validFrom: now,
      statusPurpose: 'revocation',
      encodedList: encodeList(Bitstring.fromBytes(list.bits)),
    }) as unknown as Json;
    const proofOptions = { type: 'EcdsaSecp256k1Signature2019', created: now, proofPurpose: 'assertionMethod', verificationMethod: `${formatDocumentId(issuer.did, issuer.ledgerFileId)}#keys-1` };
    const jws = await this.custody.use(list.tenantId, issuer.managedKeyId!, (sk) => signDetachedEs256k(canonicalBytes({ ...doc, proof: proofOptions }), sk));
    const signed = { ...doc, proof: { ...proofOptions, jws } };
    await this.credentials.storeSignedStatusList(list.id, list.version, signed);
    return signed;
  }

  /**
   * The checks of a credential shown inside a presentation (which shows only some attributes, so
   * the ledger hash of the full credential does not apply): shape and pinned context, the issuer's
   * signature, the shown disclosures (exactly `expectedAttributes`), status and validity now.
   * Returns the first problem, or null.
   */
  async presentedProblem(vc: Json, expectedAttributes: readonly string[]): Promise<string | null> {
    const shape = familyBShapeProblem(vc);
    if (shape) return shape;
    const issuer = await this.issuerRecord(vc['issuer']);
    if (!issuer || !this.issuerSigned(vc, issuer)) return 'issuer signature does not verify';
    const disclosed = checkSubject(vc, { all: false, expectedAttributes });
    if (!disclosed.ok) return disclosed.reason;
    const [notRevoked, why] = await this.statusCheck(vc, issuer);
    if (!notRevoked) return why ?? 'status check failed';
    return familyBValidityProblem(vc, this.clock.now());
  }

  /** The issuer's key, its verification method and signature over the commitment. */
  private issuerSigned(credential: Json, issuer: DidRecord | null): boolean {
    if (!issuer || issuer.keyAlgorithm !== 'secp256k1') return false;
    const vm = isObject(credential['proof']) ? credential['proof']['verificationMethod'] : undefined;
    const vmOk = vm === `${formatDocumentId(issuer.did, issuer.ledgerFileId)}#keys-1` || vm === `${issuer.did}#keys-1`;
    return vmOk && verifyFamilyBSignature(credential, hexToBytes(issuer.publicKeyHex));
  }

  /** Bit value of a credential's status entry (true = revoked), from this service's list. */
  async isRevoked(credential: Json): Promise<boolean | undefined> {
    const issuer = await this.issuerRecord(credential['issuer']);
    const [ok] = await this.statusCheck(credential, issuer);
    return !ok;
  }

  async issuerRecord(issuer: unknown): Promise<DidRecord | null> {
    if (typeof issuer !== 'string') return null;
    let ref;
    try {
      ref = parseServiceDid(issuer);
    } catch {
      return null;
    }
    return ref ? this.dids.findByDid(ref.did) : null;
  }

  private async statusCheck(credential: Json, issuer: DidRecord | null): Promise<[boolean, string?]> {
    const target = this.statusTarget(credential);
    // The bit is read fresh, in one small statement, whatever is cached: a revocation is never stale.
    const bit = target?.listId && issuer ? await this.credentials.statusBit(target.listId, target.index ?? -1) : null;
    return this.statusVerdict(target, bit, issuer);
  }

  /**
   * Where a credential's status entry points: the id of the list of this service it names (null:
   * none) and the bit index (undefined: malformed). Null when there is no status entry at all.
   */
  private statusTarget(credential: Json): StatusTarget | null {
    const status = credential['credentialStatus'];
    if (!isObject(status) || typeof status['statusListCredential'] !== 'string') return null;
    const url = status['statusListCredential'];
    // A bbs-2023 template credential names its list's bbs-2023 publication (…/status/<id>/bbs-2023): the same bits.
    const listId = bbsStatusListId(url, this.publicUrl + STATUS_PATH) ?? (url.startsWith(this.publicUrl + STATUS_PATH) ? url.slice((this.publicUrl + STATUS_PATH).length) : '');
    let index: number | undefined;
    try {
      index = parseStatusListIndex(status['statusListIndex']);
    } catch {
      index = undefined;
    }
    return { listId: isUuid(listId) ? listId : null, index };
  }

  /** The status check from the entry and the bit read for it (null: no such list, or not read). */
  private statusVerdict(target: StatusTarget | null, bit: StatusBit | null, issuer: DidRecord | null): [boolean, string?] {
    if (!target) return [false, 'credentialStatus is missing'];
    if (!bit || !issuer || bit.issuerDidId !== issuer.id) return [false, 'status list is not the issuer list'];
    if (target.index === undefined) return [false, 'statusListIndex is malformed'];
    if (bit.revoked === null) return [false, 'statusListIndex is out of range'];
    return bit.revoked ? [false, 'credential has been revoked'] : [true];
  }

  private statusListUrl(id: string): string {
    return `${this.publicUrl}${STATUS_PATH}${id}`;
  }

  /** A credential of the caller's tenant; for a holder-bound caller, only its own holder's. */
  private async own(actor: Actor, id: string): Promise<FamilyBCredentialRecord> {
    const r = isCredentialId(id) ? await this.credentials.findForTenant(actor.tenantId, id) : null;
    // Another holder's credential is reported exactly like an unknown one.
    if (!r || !mayActFor(actor, r.holder)) throw notFound('credential');
    return r;
  }
}

