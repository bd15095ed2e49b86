import { AppError, type FieldIssue, invalidInput } from '../../errors';
import { canonicalBytes } from '../../domain/canonical';
import type { Clock, DidRepository, IssuedCredentialRepository, SchemaRecord } from '../../domain/ports';
import { MAX_DEPENDANT_SCHEMAS, pairDependants } from '../../domain/schemas';
import type { Actor } from '../../domain/tenancy/actor';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Stored copies from before face commitments replaced the face with this marker. */
const LEGACY_SEALED_FACE = '[sealed]';

/** True when `presented` is exactly the credential as issued (RFC 8785 canonical JSON). */
function sameAsIssued(stored: Record<string, unknown>, presented: Record<string, unknown>): boolean {
  const storedBio = stored['biometrics'];
  const presentedBio = presented['biometrics'];
  const comparable =
    isObject(storedBio) && storedBio['face'] === LEGACY_SEALED_FACE && isObject(presentedBio)
      ? { ...presented, biometrics: { ...presentedBio, face: LEGACY_SEALED_FACE } }
      : presented;
  try {
    return Buffer.from(canonicalBytes(stored)).equals(Buffer.from(canonicalBytes(comparable)));
  } catch {
    return false;
  }
}

/**
 * `dependantVerifiableCredential` of POST/PUT /issuer/verifiableCredential. A schema's
 * `dependantSchemas` name schemas of the same tenant (checked at schema creation); issuing under it
 * needs, for each, one credential that
 * - this tenant issued and that is presented exactly as issued (the stored copy is the reference,
 *   so no proof needs re-checking),
 * - is live: issued (not revoked or superseded), not expired, its issuer DID not deleted,
 * - belongs to the same holder (the `did` header).
 * A credential that answers no declared schema is refused too: nothing is silently ignored.
 * Only reads; issuance calls it before anything is written.
 */
export class DependantCredentials {
  constructor(
    private readonly credentials: IssuedCredentialRepository,
    private readonly dids: DidRepository,
    private readonly clock: Clock,
  ) {}

  async check(actor: Actor, schema: SchemaRecord, holderDid: string, presented: readonly unknown[]): Promise<void> {
    const declared = Array.isArray(schema.body['dependantSchemas']) ? (schema.body['dependantSchemas'] as string[]) : [];
    if (presented.length > MAX_DEPENDANT_SCHEMAS) {
      throw invalidInput(`dependantVerifiableCredential lists at most ${MAX_DEPENDANT_SCHEMAS} credentials`, [{ field: 'dependantVerifiableCredential', message: 'too many' }]);
    }
    const issues: FieldIssue[] = [];
    const versions: string[] = [];
    const seen = new Set<string>();
    for (const [i, vc] of presented.entries()) {
      const field = `dependantVerifiableCredential[${i}]`;
      const outcome = await this.inspect(actor, vc, holderDid, seen);
      if ('problem' in outcome) issues.push({ field, message: outcome.problem });
      else versions.push(outcome.version);
    }
    if (issues.length === 0) issues.push(...pairDependants(declared, versions));
    if (issues.length > 0) throw new AppError('VERIFICATION_FAILED', "dependantVerifiableCredential does not satisfy the schema's dependantSchemas", issues);
  }

  private async inspect(actor: Actor, vc: unknown, holderDid: string, seen: Set<string>): Promise<{ version: string } | { problem: string }> {
    if (!isObject(vc) || typeof vc['id'] !== 'string' || vc['id'] === '') return { problem: 'must be a credential (an object with its id)' };
    const id = vc['id'];
    if (seen.has(id)) return { problem: 'repeats a credential already given' };
    seen.add(id);
    const record = await this.credentials.findForTenant(actor.tenantId, id);
    if (!record) return { problem: 'was not issued by this issuer' };
    if (!sameAsIssued(record.document, vc)) return { problem: 'differs from the credential as issued (altered)' };
    if (record.status !== 'issued') return { problem: `is ${record.status}` };
    if (record.expiresAt.getTime() <= this.clock.now().getTime()) return { problem: 'has expired' };
    if (record.holderDid !== holderDid) return { problem: 'belongs to another holder' };
    const issuer = await this.dids.findById(record.issuerDidId);
    if (!issuer || issuer.deletedAt !== null) return { problem: 'its issuer DID has been deleted' };
    const version = record.document['version'];
    return typeof version === 'string' ? { version } : { problem: 'names no schema version' };
  }
}
