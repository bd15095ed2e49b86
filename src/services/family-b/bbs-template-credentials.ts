import { randomUUID } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { AppError } from '../../errors';
import { canonicalBytes } from '../../domain/canonical';
import { isoSeconds } from '../../domain/credentials/family-a-credential';
import type { DidRecord, DidRepository, KeyCustody, TemplateRecord } from '../../domain/ports';
import { Bitstring, buildStatusListCredential, buildStatusListEntry, encodeList } from '../../domain/status-list';
import type { PrismaCredentialRepository } from '../../db/repositories/credential.repository';
import { type Bbs2023Engine, bbs2023Engine } from '../../formats/bbs-2023/engine';
import { bbs2023 } from '../../formats/bbs-2023/format';
import { BBS_STATUS_SUFFIX, bbsStatusListId, templateBbsKey, templateBbsSeed, templateCredential, templateMandatoryPointers } from '../../formats/bbs-2023/template-credential';
import type { BbsKeyPair } from '../../formats/bbs-2023/engine';
import type { JsonObject, StatusListSource } from '../../vc/ports';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The check list of Family B verify (credentials.service.ts), as far as a derived bbs-2023 credential has them. */
export interface BbsCheck {
  readonly check: 'format' | 'signature' | 'status' | 'expiry';
  readonly ok: boolean;
  readonly detail?: string;
}

export interface BbsIssueInput {
  readonly tenantId: string;
  readonly template: TemplateRecord;
  readonly issuer: DidRecord;
  readonly statusListId: string;
  readonly statusListUrl: string;
  readonly holder: string | null;
  readonly values: Readonly<Record<string, unknown>>;
  readonly now: Date;
  readonly expires: Date;
}

/** The status check of Family B verify: the bit of the credential's entry in `issuer`'s list. */
export type StatusCheck = (credential: Json, issuer: DidRecord) => Promise<[boolean, string?]>;

/** Issuer DIDs whose BBS did:key is remembered (public data; the secret is derived per signature). */
const MAX_CACHED_KEYS = 1024;

/**
 * Family B templates with proofSuite bbs-2023 (issue 18). The template's issuer DID signs with a
 * BLS12-381 G2 key derived from its sealed secp256k1 key (templateBbsSeed) and named by its did:key,
 * which is the credential's issuer: any bbs-2023 verifier (Digital Bazaar's, the VC-API) checks a
 * derivation with that key alone. The service binds the did:key to the issuer DID: the credential's
 * status entry is in that DID's Family B list, and Family B verify requires the list's DID to
 * derive the very did:key that signed.
 *
 * Issuance goes through the same sequencer as every Family B credential (status slot, row, ledger
 * entry in one batch transaction). The batch builds synchronously, and a BBS signature takes a
 * worker, so the row holds the credential as issued without its proof (what the ledger entry
 * hashes) and the base proof is made right after the commit; GET /credentials/{id} signs it again
 * (a base proof is the holder's, any number of them are valid; verifiers only ever see derivations).
 */
export class BbsTemplateCredentials {
  private readonly didKeys = new Map<string, string>();
  /** Published bbs-2023 status lists by list id and version: signed again only when a bit changed. */
  private readonly lists = new Map<string, Promise<JsonObject>>();

  constructor(
    private readonly credentials: PrismaCredentialRepository,
    private readonly dids: DidRepository,
    private readonly custody: KeyCustody,
    /** `<publicUrl>/status/`: where Family B lists are published. */
    private readonly statusBase: string,
    private readonly clock: { now(): Date },
    private readonly engine: Bbs2023Engine = bbs2023Engine,
  ) {}

  /** The status list URL a bbs-2023 template credential names (see BBS_STATUS_SUFFIX). */
  statusListUrl(listId: string): string {
    return `${this.statusBase}${listId}${BBS_STATUS_SUFFIX}`;
  }

  /**
   * GET /status/{listId}/bbs-2023: the DID's Family B list as a W3C BitstringStatusListCredential
   * issued by the DID's BBS did:key, with a derived bbs-2023 proof disclosing everything (verifiers
   * accept derived proofs only). Null when there is no such list or its DID holds no key.
   */
  async statusListCredential(listId: string): Promise<JsonObject | null> {
    const list = await this.credentials.statusList(listId);
    const issuer = list ? await this.dids.findById(list.issuerDidId) : null;
    if (!list || !issuer || issuer.keyAlgorithm !== 'secp256k1' || !issuer.managedKeyId) return null;
    const cacheKey = `${list.id}:${list.version}:${issuer.publicKeyHex}`;
    const known = this.lists.get(cacheKey);
    if (known) return known;
    const work = (async () => {
      const key = await this.keyOf(issuer);
      try {
        const url = this.statusListUrl(list.id);
        const document = buildStatusListCredential({ id: url, issuer: key.did, validFrom: isoSeconds(this.clock.now()), statusPurpose: 'revocation', encodedList: encodeList(Bitstring.fromBytes(list.bits)) }) as unknown as JsonObject;
        const base = await this.engine.sign(document, key, ['/id', '/type', '/issuer', '/validFrom', '/credentialSubject']);
        return await this.engine.derive(base, []);
      } finally {
        key.secretKey.fill(0);
      }
    })();
    // Only the newest version of each list is worth keeping; a failure is not remembered.
    for (const k of this.lists.keys()) if (k.startsWith(`${list.id}:`)) this.lists.delete(k);
    if (this.lists.size >= MAX_CACHED_KEYS) this.lists.delete(this.lists.keys().next().value as string);
    this.lists.set(cacheKey, work);
    work.catch(() => this.lists.delete(cacheKey));
    return work;
  }

  /**
   * The VC-API verifier's status source: this service's bbs-2023 lists are read here (the current
   * bits, never a stale copy, and no HTTP round trip to itself); every other URL from `other`.
   */
  statusSource(other: StatusListSource): StatusListSource {
    return {
      fetchStatusListCredential: async (url) => {
        const listId = bbsStatusListId(url, this.statusBase);
        if (listId === undefined) return other.fetchStatusListCredential(url);
        const list = await this.statusListCredential(listId);
        if (!list) throw new AppError('NOT_FOUND', `status list ${url} not found`);
        return list;
      },
    };
  }

  async issue(input: BbsIssueInput): Promise<JsonObject> {
    const key = await this.keyOf(input.issuer);
    try {
      const record = await this.credentials.issue({ tenantId: input.tenantId, templateId: input.template.id, issuerDidId: input.issuer.id, statusListId: input.statusListId }, (statusIndex) => {
        const id = `urn:uuid:${randomUUID()}`;
        const document = templateCredential({
          id,
          templateName: input.template.name,
          issuer: key.did,
          holder: input.holder,
          validFrom: isoSeconds(input.now),
          validUntil: isoSeconds(input.expires),
          values: input.values,
          credentialStatus: { ...buildStatusListEntry({ listCredentialUrl: input.statusListUrl, index: statusIndex, purpose: 'revocation' }) },
        });
        const hash = sha256(canonicalBytes(document));
        return { id, document, credentialHash: hash, holder: input.holder, expiresAt: input.expires, anchor: { logId: input.issuer.topicId, entryHash: hash, kind: 'credential', ref: id } };
      });
      return await this.sign(record.document as JsonObject, key);
    } finally {
      key.secretKey.fill(0);
    }
  }

  /** The stored credential (no proof) with a fresh base proof, for its holder. */
  async signStored(document: Json, issuerDidId: string): Promise<JsonObject> {
    const issuer = await this.dids.findById(issuerDidId);
    if (!issuer) throw new AppError('CONFLICT', 'the issuer DID of this credential is gone: it cannot be signed again');
    const key = await this.keyOf(issuer);
    try {
      return await this.sign(document as JsonObject, key);
    } finally {
      key.secretKey.fill(0);
    }
  }

  /** Whether a stored Family B document is a bbs-2023 template credential (stored without its proof). */
  static isStored(document: Json): boolean {
    const ctx = document['@context'];
    return document['proof'] === undefined && Array.isArray(ctx) && ctx[0] === 'https://www.w3.org/ns/credentials/v2';
  }

  /** Whether Family B verify should hand `credential` to verify() below. */
  static claims(credential: unknown): boolean {
    return bbs2023.detect(credential);
  }

  /**
   * Family B verify of a derived credential: the proof with the did:key it names; that did:key is
   * the BBS key of the DID whose list holds the status entry; the status bit; the validity period.
   * A derivation cannot be matched with the ledger entry (it discloses part of the credential under
   * a fresh proof), so there is no ledger check; the issuance itself is anchored.
   */
  async verify(credential: Json, now: Date, statusCheck: StatusCheck): Promise<BbsCheck[]> {
    const checks: BbsCheck[] = [];
    const add = (check: BbsCheck['check'], ok: boolean, detail?: string): void => void checks.push({ check, ok, ...(detail ? { detail } : {}) });
    const issuerDid = await this.statusListIssuer(credential);
    const shape = typeof credential['issuer'] !== 'string' ? 'issuer must be a did:key' : issuerDid ? undefined : 'credentialStatus does not name a status list of this service';
    add('format', !shape, shape);

    const proof = await this.engine.verify(credential);
    // A DID whose key this service does not hold has no BBS key: nothing it could have signed.
    const expected = issuerDid && issuerDid.keyAlgorithm === 'secp256k1' && issuerDid.managedKeyId ? await this.didKeyOf(issuerDid) : undefined;
    if (!proof.verified) add('signature', false, proof.reason);
    else if (proof.controller !== credential['issuer'] || expected !== proof.controller) add('signature', false, 'not signed by the BBS key of the issuer DID whose status list it is in');
    else add('signature', true);

    if (issuerDid) add('status', ...(await statusCheck(credential, issuerDid)));
    else add('status', false, 'status list is not the issuer list');
    const validity = validityProblem(credential, now);
    add('expiry', !validity, validity ?? undefined);
    return checks;
  }

  /** The DID owning the Family B list the credential's status entry names (`…/status/<listId>/bbs-2023`). */
  private async statusListIssuer(credential: Json): Promise<DidRecord | null> {
    const status = credential['credentialStatus'];
    const url = isObject(status) ? status['statusListCredential'] : undefined;
    const listId = typeof url === 'string' ? bbsStatusListId(url, this.statusBase) : undefined;
    const list = listId !== undefined ? await this.credentials.statusList(listId) : null;
    return list ? this.dids.findById(list.issuerDidId) : null;
  }

  private async didKeyOf(issuer: DidRecord): Promise<string> {
    // Keyed by the DID's public key too, so a rotated key is never answered from the cache.
    const cacheKey = `${issuer.id}:${issuer.publicKeyHex}`;
    const known = this.didKeys.get(cacheKey);
    if (known) return known;
    const key = await this.keyOf(issuer);
    key.secretKey.fill(0);
    if (this.didKeys.size >= MAX_CACHED_KEYS) this.didKeys.delete(this.didKeys.keys().next().value as string);
    this.didKeys.set(cacheKey, key.did);
    return key.did;
  }

  private async keyOf(issuer: DidRecord): Promise<BbsKeyPair & { did: string }> {
    // Checked when the template was saved and at each issuance; a key removed since cannot sign again.
    if (issuer.keyAlgorithm !== 'secp256k1' || !issuer.managedKeyId) throw new AppError('CONFLICT', 'the issuer DID no longer holds the secp256k1 key its BBS key is derived from');
    const seed = await this.custody.use(issuer.tenantId, issuer.managedKeyId, (sk) => templateBbsSeed(sk, issuer.did));
    try {
      return await templateBbsKey(this.engine, seed);
    } finally {
      seed.fill(0);
    }
  }

  private sign(document: JsonObject, key: BbsKeyPair): Promise<JsonObject> {
    return this.engine.sign(document, key, templateMandatoryPointers(document));
  }
}

function validityProblem(credential: Json, now: Date): string | null {
  const from = Date.parse(String(credential['validFrom']));
  const until = Date.parse(String(credential['validUntil']));
  if (!Number.isFinite(from) || !Number.isFinite(until)) return 'validFrom and validUntil must be disclosed dates';
  if (now.getTime() < from) return 'credential is not yet valid';
  if (now.getTime() > until) return 'credential has expired';
  return null;
}
