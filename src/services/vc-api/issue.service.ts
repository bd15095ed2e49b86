import { AppError, invalidInput } from '../../errors';
import type { Clock } from '../../domain/ports';
import type { Actor } from '../../domain/tenancy/actor';
import type { VcIssuerRecord, VcStatusPurpose, VcStatusRepository } from '../../domain/vc-issuers';
import { formats as registered, type FormatRegistry } from '../../formats/registry';
import { checkIssuableCredential, credentialVersion, isJsonObject, prepareCredentialForIssuance } from '../../vc/model';
import type { IssuingSuite, JsonObject, ProofSigner } from '../../vc/ports';
import { DEFAULT_INSTANCE, type VcIssuersService } from './issuers.service';
import { type IssueOptions, parseIssueOptions } from './issue-options';
import type { VcStatusListsService } from './status-lists.service';
import { dataIntegritySuiteOf, issuingFormat } from './suites';

/** The body of POST /credentials/issue (and of an instance's issue endpoint). */
export interface IssueCredentialInput {
  readonly credential: Record<string, unknown>;
  readonly options?: Record<string, unknown> | undefined;
}

/** Which instance issues: the tenant's default, or one named by id. */
export type IssuerSelector = { readonly kind: 'default' } | { readonly kind: 'instance'; readonly id: string };

/** VCDM 1.1 has no BitstringStatusListEntry term; its own context defines it. */
const STATUS_CONTEXT = 'https://www.w3.org/ns/credentials/status/v1';

/** The allocation's own 409 message (src/db/repositories/vc-status.repository.ts), so both refusals read alike. */
const ALREADY_ISSUED = 'a credential with this id was already issued by this tenant (credential.id or options.credentialId must be new)';

/**
 * Issuance through the VC-API. Status entries are added only when the caller asks for them
 * (`options.credentialStatus`, one entry per purpose), as the VC-API has it: a credential asked
 * for without one is signed exactly as given, so any verifier's document loader can read it (a
 * VCDM 1.1 credential with an entry needs the status/v1 context, which many loaders lack). An
 * entry needs a credential that can be referred to (`credential.id` or `options.credentialId`),
 * and a credential that already carries `credentialStatus` keeps the caller's.
 */
export class VcIssueService {
  constructor(
    private readonly issuers: VcIssuersService,
    private readonly status: VcStatusListsService,
    private readonly statusRepo: VcStatusRepository,
    private readonly clock: Clock,
    private readonly formats: FormatRegistry = registered,
  ) {}

  async issue(actor: Actor, selector: IssuerSelector, input: IssueCredentialInput): Promise<{ verifiableCredential: JsonObject }> {
    const options = parseIssueOptions(input.options);
    const now = this.clock.now();
    const found = selector.kind === 'default' ? await this.issuers.existingDefault(actor) : await this.issuers.get(actor, selector.id);
    requireNamedIssuer(input.credential as JsonObject);
    // Everything that does not need the issuer's DID is checked against the suite that will sign
    // (the default instance's, when it does not exist yet) before the default is created: a request
    // refused for its options, its status entries or a credential id already issued (409) must not
    // leave a new default instance behind.
    const signsWith = found ?? DEFAULT_INSTANCE;
    this.checkOptions(signsWith.cryptosuite, options);
    const credentialId = options.credentialId ?? (typeof input.credential['id'] === 'string' ? input.credential['id'] : undefined);
    const purposes = this.purposesOf(input.credential as JsonObject, options, credentialId);
    // Refused before a slot is spent: the instance's format must be able to sign its status lists.
    if (purposes.length > 0) dataIntegritySuiteOf(signsWith.cryptosuite, signsWith.keyType, this.formats);
    let issuer = found;
    if (!issuer) {
      // The default instance is created on first use, but not by a request that would be refused
      // for its shape anyway; a well-formed one then learns the new instance's DID from the refusal.
      checkIssuableCredential(input.credential as JsonObject, now);
      if (credentialId !== undefined && purposes.length > 0) await this.refuseIssuedId(actor, credentialId, purposes);
      issuer = await this.issuers.defaultFor(actor);
    }
    const credential = prepareCredentialForIssuance(input.credential as JsonObject, { issuer: issuer.did, now });
    const signer = issuer;

    return this.issuers.withSigner(signer, async (keySigner) => {
      if (purposes.length === 0 || credentialId === undefined) return { verifiableCredential: await this.secure(signer, keySigner, credential, options) };
      return this.statusRepo.allocate({ tenantId: actor.tenantId, issuerId: signer.id, credentialId, purposes }, async (slots) => {
        const entries = this.status.entriesOf(slots);
        const withStatus: JsonObject = { ...credential, credentialStatus: entries.length === 1 ? entries[0] : entries };
        if (credentialVersion(credential) === '1.1') withStatus['@context'] = withContext(credential['@context'], STATUS_CONTEXT);
        return { verifiableCredential: await this.secure(signer, keySigner, withStatus, options) };
      });
    });
  }

  /** Options that only some suites take; refused before anything is allocated or created. */
  private checkOptions(cryptosuite: IssuingSuite, options: IssueOptions): void {
    if (options.mandatoryPointers !== undefined && issuingFormat(cryptosuite, this.formats).derive === undefined) {
      throw invalidInput(`options.mandatoryPointers applies to selective-disclosure suites (bbs-2023), not ${cryptosuite}`, [{ field: 'options.mandatoryPointers', message: `not applicable to ${cryptosuite}` }]);
    }
    if (!issuingFormat(cryptosuite, this.formats).vcApi.proofOptions) {
      for (const k of ['created', 'challenge', 'domain'] as const) {
        if (options[k] !== undefined) throw invalidInput(`options.${k} does not apply to ${cryptosuite} issuers`, [{ field: `options.${k}`, message: `not applicable to ${cryptosuite}` }]);
      }
    }
  }

  /**
   * The 409 the status allocation would answer, asked before a first use creates the default
   * instance (the allocation still decides under its unique key; this only keeps a request that
   * is bound to fail from creating the instance first).
   */
  private async refuseIssuedId(actor: Actor, credentialId: string, purposes: readonly VcStatusPurpose[]): Promise<void> {
    const taken = await this.statusRepo.entries(actor.tenantId, credentialId);
    if (taken.some((e) => purposes.includes(e.purpose))) throw new AppError('CONFLICT', ALREADY_ISSUED);
  }

  private purposesOf(credential: JsonObject, options: IssueOptions, credentialId: string | undefined): readonly VcStatusPurpose[] {
    const own = credential['credentialStatus'] !== undefined;
    if (options.statusPurposes !== undefined) {
      if (options.statusPurposes.length > 0 && own) throw invalidInput('credential.credentialStatus and options.credentialStatus exclude each other', [{ field: 'options.credentialStatus', message: 'the credential carries its own credentialStatus' }]);
      if (options.statusPurposes.length > 0 && credentialId === undefined) {
        throw invalidInput('a status entry needs a credential that can be referred to: give credential.id or options.credentialId', [{ field: 'options.credentialId', message: 'required with credentialStatus' }]);
      }
      return options.statusPurposes;
    }
    return [];
  }

  /** Secures the credential with the format the instance signs with (src/formats): an embedded proof, or a JWT in its envelope. */
  private secure(issuer: VcIssuerRecord, signer: ProofSigner, credential: JsonObject, options: IssueOptions): Promise<JsonObject> {
    const proof = {
      ...(options.created !== undefined ? { created: options.created } : {}),
      ...(options.challenge !== undefined ? { challenge: options.challenge } : {}),
      ...(options.domain !== undefined ? { domain: options.domain } : {}),
    };
    return issuingFormat(issuer.cryptosuite, this.formats).issue({ credential, signer, options: proof, ...(options.mandatoryPointers !== undefined ? { mandatoryPointers: options.mandatoryPointers } : {}) });
  }
}

/**
 * The VC-API caller names the issuer it addresses (the VC-API issuer conformance suite refuses an
 * issuer that fills one in): a client never signs as an instance it did not name.
 */
function requireNamedIssuer(credential: JsonObject): void {
  const named = isJsonObject(credential) ? credential['issuer'] : undefined;
  if (named === undefined || (isJsonObject(named) && named['id'] === undefined)) {
    throw invalidInput('credential.issuer is required: the DID of the issuer instance (GET /issuers lists them)', [{ field: 'credential.issuer', message: 'required' }]);
  }
}

function withContext(context: unknown, add: string): unknown {
  const list = Array.isArray(context) ? context : [context];
  return list.includes(add) ? context : [...list, add];
}
