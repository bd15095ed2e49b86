import { AppError, invalidInput, notFound } from '../../errors';
import type { Clock } from '../../domain/ports';
import type { Actor } from '../../domain/tenancy/actor';
import { VC_STATUS_PURPOSES, type VcStatusPurpose, type VcStatusRepository, type VcStatusSlot } from '../../domain/vc-issuers';
import { buildStatusListCredential, statusListEntry } from '../../vc/status';
import type { JsonObject, StatusListSource } from '../../vc/ports';
import { isUuid } from '../family-b/ids';
import type { VcIssuersService } from './issuers.service';
import type { RevocationListener } from '../token-status-list.service';
import { dataIntegritySuiteOf, issuingFormat } from './suites';

/** A signed status list credential and its validator for HTTP caching. */
export interface PublishedStatusList {
  readonly document: JsonObject;
  /** Strong ETag: the list id and its version (the document is stored per version, byte-stable). */
  readonly etag: string;
}

/** The answer of POST /credentials/status. */
export interface StatusUpdate {
  readonly credentialId: string;
  readonly credentialStatus: JsonObject;
  readonly status: boolean;
}

export interface UpdateStatusInput {
  readonly credentialId: string;
  readonly credentialStatus: { readonly type: string; readonly statusPurpose: string; readonly [k: string]: unknown };
  readonly status: boolean;
}

const ENTRY_TYPES = new Set(['BitstringStatusListEntry', 'BitstringStatusList', 'BitstringStatusListCredential']);
const isoSeconds = (d: Date): string => `${d.toISOString().slice(0, 19)}Z`;

/**
 * The status lists of VC-API issuer instances: entries at issuance, status updates by the issuing
 * tenant, and the public list credentials (signed with the instance's suite once per change).
 */
export class VcStatusListsService {
  /** Lists being signed right now, so concurrent readers of a changed list share one signature. */
  private readonly signing = new Map<string, Promise<PublishedStatusList>>();

  constructor(
    private readonly repo: VcStatusRepository,
    private readonly issuers: VcIssuersService,
    private readonly clock: Clock,
    /** `${publicUrl}${base}/status-lists/`: the prefix of every list credential URL. */
    private readonly listUrlPrefix: string,
    /** Token status lists the credential is also in (issue 21): a revocation flips them too. */
    private readonly revocations?: RevocationListener,
  ) {}

  listUrl(listId: string): string {
    return `${this.listUrlPrefix}${listId}`;
  }

  /** The credentialStatus entries of allocated slots. */
  entriesOf(slots: readonly VcStatusSlot[]): JsonObject[] {
    return slots.map((s) => statusListEntry({ listCredentialUrl: this.listUrl(s.listId), index: s.index, statusPurpose: s.purpose }));
  }

  /**
   * POST /credentials/status: sets (`status: true`) or clears the bit of one of the tenant's own
   * credentials. Idempotent. A revocation cannot be undone (that is what suspension is for).
   */
  async update(actor: Actor, input: UpdateStatusInput): Promise<StatusUpdate> {
    const { credentialId, credentialStatus, status } = input;
    if (!ENTRY_TYPES.has(credentialStatus.type)) {
      throw invalidInput('credentialStatus.type must be BitstringStatusListEntry', [{ field: 'credentialStatus.type', message: 'unsupported status type' }]);
    }
    const purpose = credentialStatus.statusPurpose;
    if (!(VC_STATUS_PURPOSES as readonly string[]).includes(purpose)) {
      throw invalidInput(`credentialStatus.statusPurpose must be one of ${VC_STATUS_PURPOSES.join(', ')}`, [{ field: 'credentialStatus.statusPurpose', message: 'unsupported purpose' }]);
    }
    const p = purpose as VcStatusPurpose;
    const entries = await this.repo.entries(actor.tenantId, credentialId);
    if (entries.length === 0) throw notFound('credential');
    const entry = entries.find((e) => e.purpose === p);
    if (!entry) throw new AppError('NOT_FOUND', `the credential has no ${p} status entry (it was issued with ${entries.map((e) => e.purpose).join(', ')})`);
    if (p === 'revocation' && !status && (await this.repo.bit(entry.listId, entry.index))) {
      throw new AppError('CONFLICT', 'a revocation cannot be undone; suspension is the reversible status');
    }
    const change = await this.repo.setStatus(actor.tenantId, credentialId, p, status);
    if (!change) throw notFound('credential');
    if (p === 'revocation' && status) await this.revocations?.credentialRevoked(actor.tenantId, credentialId);
    return { credentialId, credentialStatus: this.entriesOf([change.slot])[0]!, status: change.set };
  }

  /** GET {base}/status-lists/{id}: the signed list credential of the list's current version. */
  async published(listId: string): Promise<PublishedStatusList> {
    if (!isUuid(listId)) throw notFound('status list');
    const stored = await this.repo.signedList(listId);
    if (stored) return { document: stored.document, etag: `"${listId}.${stored.version}"` };
    const pending = this.signing.get(listId);
    if (pending) return pending;
    const work = this.sign(listId).finally(() => this.signing.delete(listId));
    this.signing.set(listId, work);
    return work;
  }

  /**
   * Where verification reads status lists: this service's own lists from the database (the
   * current signed document, never a stale copy), any other URL from `remote`.
   */
  source(remote: StatusListSource): StatusListSource {
    return {
      fetchStatusListCredential: async (url) => {
        if (!url.startsWith(this.listUrlPrefix)) return remote.fetchStatusListCredential(url);
        const id = url.slice(this.listUrlPrefix.length);
        try {
          return (await this.published(id)).document;
        } catch (e) {
          if (e instanceof AppError && e.code === 'NOT_FOUND') throw new AppError('NOT_FOUND', `status list ${url} not found`);
          throw e;
        }
      },
    };
  }

  private async sign(listId: string): Promise<PublishedStatusList> {
    const list = await this.repo.list(listId);
    if (!list) throw notFound('status list');
    const issuer = await this.issuers.findById(list.issuerId);
    if (!issuer) throw notFound('status list');
    const unsigned = buildStatusListCredential({
      id: this.listUrl(list.id),
      issuer: issuer.did,
      statusPurpose: list.purpose,
      bits: list.bits,
      version: '2.0',
      validFrom: isoSeconds(this.clock.now()),
    });
    // Signed with the embedded-proof format the instance's own format names for its lists.
    const format = issuingFormat(dataIntegritySuiteOf(issuer.cryptosuite, issuer.keyType));
    const document = await this.issuers.withSigner(issuer, (signer) => format.issue({ credential: unsigned, signer }));
    await this.repo.storeSignedList(list.id, list.version, document);
    return { document, etag: `"${list.id}.${list.version}"` };
  }
}
