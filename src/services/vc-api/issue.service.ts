import { invalidInput } from '../../errors';
import type { Clock } from '../../domain/ports';
import type { Actor } from '../../domain/tenancy/actor';
import type { VcIssuerRecord, VcStatusPurpose, VcStatusRepository } from '../../domain/vc-issuers';
import { formats as registered, type FormatRegistry } from '../../formats/registry';
import { checkIssuableCredential, credentialVersion, isJsonObject, prepareCredentialForIssuance } from '../../vc/model';
import type { JsonObject, ProofSigner } from '../../vc/ports';
import type { VcIssuersService } from './issuers.service';
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
    let issuer = selector.kind === 'default' ? await this.issuers.existingDefault(actor) : await this.issuers.get(actor, selector.id);
    requireNamedIssuer(input.credential as JsonObject);
    if (!issuer) {
      // The default instance is created on first use, but not by a request that would be refused
      // for its shape anyway; a well-formed one then learns the new instance's DID from the refusal.
      checkIssuableCredential(input.credential as JsonObject, now);
      issuer = await this.issuers.defaultFor(actor);
    }
    // Refused before anything is allocated: a status slot must not be spent on a request that fails.
    if (options.mandatoryPointers !== undefined && issuingFormat(issuer.cryptosuite, this.formats).derive === undefined) {
      throw invalidInput(`options.mandatoryPointers applies to selective-disclosure suites (bbs-2023), not ${issuer.cryptosuite}`, [{ field: 'options.mandatoryPointers', message: `not applicable to ${issuer.cryptosuite}` }]);
    }
    if (!issuingFormat(issuer.cryptosuite, this.formats).vcApi.proofOptions) {
      for (const k of ['created', 'challenge', 'domain'] as const) {
        if (options[k] !== undefined) throw invalidInput(`options.${k} does not apply to ${issuer.cryptosuite} issuers`, [{ field: `options.${k}`, message: `not applicable to ${issuer.cryptosuite}` }]);
      }
    }
    const credential = prepareCredentialForIssuance(input.credential as JsonObject, { issuer: issuer.did, now });
    const credentialId = options.credentialId ?? (typeof credential['id'] === 'string' ? credential['id'] : undefined);
    const purposes = this.purposesOf(credential, options, credentialId);
    // Refused before a slot is spent: the instance's format must be able to sign its status lists.
    if (purposes.length > 0) dataIntegritySuiteOf(issuer.cryptosuite, issuer.keyType, this.formats);

    return this.issuers.withSigner(issuer, async (signer) => {
      if (purposes.length === 0 || credentialId === undefined) return { verifiableCredential: await this.secure(issuer, signer, credential, options) };
      return this.statusRepo.allocate({ tenantId: actor.tenantId, issuerId: issuer.id, credentialId, purposes }, async (slots) => {
        const entries = this.status.entriesOf(slots);
        const withStatus: JsonObject = { ...credential, credentialStatus: entries.length === 1 ? entries[0] : entries };
        if (credentialVersion(credential) === '1.1') withStatus['@context'] = withContext(credential['@context'], STATUS_CONTEXT);
        return { verifiableCredential: await this.secure(issuer, signer, withStatus, options) };
      });
    });
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
