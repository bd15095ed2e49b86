import { invalidInput } from '../../errors';
import { formats as registered, type FormatRegistry } from '../../formats/registry';
import { isJsonObject } from '../../vc/model';
import type { JsonObject } from '../../vc/ports';

/** The body of POST /credentials/derive (VC-API): the credential as issued and the claims to disclose. */
export interface DeriveCredentialInput {
  readonly verifiableCredential: Record<string, unknown>;
  readonly options?: { readonly selectivePointers?: readonly string[] | undefined } | undefined;
}

/**
 * Derivation through the VC-API: a holder (or the service on a custodial holder's behalf) turns a
 * credential secured for selective disclosure into one that discloses the issuer's mandatory
 * claims plus the selected ones. The format that recognises the credential derives it (src/formats,
 * bbs-2023 today); nothing is stored, and each derivation is unlinkable to the others.
 */
export class VcDeriveService {
  constructor(private readonly formats: FormatRegistry = registered) {}

  /** INVALID_INPUT for a credential no selective-disclosure format recognises, a pointer that selects nothing, or a key of another curve. */
  async derive(input: DeriveCredentialInput): Promise<{ verifiableCredential: JsonObject }> {
    const credential = input.verifiableCredential;
    if (!isJsonObject(credential)) throw invalidInput('verifiableCredential must be a credential object', [{ field: 'verifiableCredential', message: 'a JSON object' }]);
    const format = this.formats.detect(credential);
    if (format?.derive === undefined) {
      throw invalidInput('the credential carries no proof a presentation can be derived from (bbs-2023 base proofs can be)', [{ field: 'verifiableCredential.proof', message: 'not a selective-disclosure base proof' }]);
    }
    const derived = await format.derive(credential, input.options?.selectivePointers ?? []);
    if (!isJsonObject(derived)) throw new Error(`${format.id} derived something that is not a JSON credential`);
    return { verifiableCredential: derived };
  }
}
