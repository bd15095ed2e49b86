import { AppError } from '../errors';
import type { JsonObject, VcProblem } from '../vc/ports';
import { MAX_PROOFS } from '../vc/proofs';
import { type AnyCredentialFormat, type CredentialFormat, OID4VCI_FORMAT_IDS, type Oid4vciFormatId, type W3cCredentialFormat } from './format';

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Formats by id, in registration order. Detection asks them in that order, so a format whose
 * shape is a special case of another's (an SD-JWT is a JWS followed by `~`) is registered before
 * the general one. Ids are unique: a second registration under a taken id is refused, never a
 * silent replacement of the first.
 */
export class FormatRegistry {
  private readonly byId = new Map<string, AnyCredentialFormat>();

  constructor(formats: readonly AnyCredentialFormat[] = []) {
    for (const f of formats) this.register(f);
  }

  /** Adds a format; refuses a taken id (CONFLICT) and an id that is not a non-empty token. */
  register<I, O, P>(format: CredentialFormat<I, O, P>): this {
    if (typeof format.id !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9:+._-]*$/.test(format.id)) {
      throw new AppError('INVALID_INPUT', `a format id must be a token of letters, digits and :+._-, not ${JSON.stringify(format.id)}`);
    }
    if (this.byId.has(format.id)) throw new AppError('CONFLICT', `a format with id ${format.id} is registered already`);
    const suite = format.vcApi?.suite;
    if (suite !== undefined && this.forIssuingSuite(suite) !== undefined) throw new AppError('CONFLICT', `issuer suite ${suite} is claimed by another format already`);
    this.byId.set(format.id, format as AnyCredentialFormat);
    return this;
  }

  /** Every format, in registration (= detection) order. */
  list(): readonly AnyCredentialFormat[] {
    return [...this.byId.values()];
  }

  get(id: string): AnyCredentialFormat | undefined {
    return this.byId.get(id);
  }

  /** The format with `id`, or INVALID_INPUT naming the ones there are (a caller asked for a format by name). */
  require(id: string): AnyCredentialFormat {
    const found = this.byId.get(id);
    if (!found) throw new AppError('INVALID_INPUT', `unsupported format ${id}; supported: ${[...this.byId.keys()].join(', ')}`, [{ field: 'format', message: 'unsupported format' }]);
    return found;
  }

  /** The format that recognises `input` as one of its credentials; undefined when none does. */
  detect(input: unknown): AnyCredentialFormat | undefined {
    for (const f of this.byId.values()) if (f.detect(input)) return f;
    return undefined;
  }

  /** The format that recognises `input` as one of its presentations. */
  detectPresentation(input: unknown): AnyCredentialFormat | undefined {
    for (const f of this.byId.values()) if (f.presentation?.detect(input)) return f;
    return undefined;
  }

  /**
   * The formats offered under an OpenID4VCI format identifier (`ldp_vc` has one per Data Integrity
   * suite); [] for an identifier nothing here issues.
   */
  forOid4vciFormat(id: string): readonly AnyCredentialFormat[] {
    return [...this.byId.values()].filter((f) => f.oid4vciFormat !== undefined && f.oid4vciFormat === id);
  }

  /** The format a DCQL credential query's `format` names (OpenID4VP), undefined when none is presented that way. */
  forDcqlFormat(id: string): AnyCredentialFormat | undefined {
    for (const f of this.byId.values()) if (f.oid4vp?.dcqlFormats.includes(id)) return f;
    return undefined;
  }

  /** The formats wallets can present over OpenID4VP, in registration order. */
  oid4vpFormats(): readonly AnyCredentialFormat[] {
    return [...this.byId.values()].filter((f) => f.oid4vp !== undefined);
  }

  /** The OpenID4VCI format identifiers at least one registered format is offered under. */
  oid4vciFormats(): readonly Oid4vciFormatId[] {
    return OID4VCI_FORMAT_IDS.filter((id) => this.forOid4vciFormat(id).length > 0);
  }

  /** The W3C format a VC-API issuer instance signs with, by the suite name it stores. */
  forIssuingSuite(suite: string): W3cCredentialFormat | undefined {
    for (const f of this.byId.values()) if (f.vcApi !== undefined && f.vcApi.suite === suite) return f as W3cCredentialFormat;
    return undefined;
  }

  /** The W3C formats VC-API issuer instances can be created with, in registration order. */
  issuingSuites(): readonly W3cCredentialFormat[] {
    return [...this.byId.values()].filter((f): f is W3cCredentialFormat => f.vcApi !== undefined);
  }

  /**
   * Why nothing here recognised `input`, in the problem types proof verification uses: a JSON
   * credential without a proof has MISSING_PROOF, one whose proofs no format knows
   * UNSUPPORTED_PROOF_SUITE, one whose proof is not an object MALFORMED_PROOF; anything else
   * (a string that is no compact JWS, SD-JWT or other registered encoding) PARSING_ERROR.
   */
  unrecognised(input: unknown): VcProblem {
    if (!isObject(input)) return { type: 'PARSING_ERROR', title: 'no registered format recognises this credential', detail: `formats: ${[...this.byId.keys()].join(', ')}` };
    const proof = input['proof'];
    if (proof === undefined || (Array.isArray(proof) && proof.length === 0)) return { type: 'MISSING_PROOF', title: 'The document has no proof' };
    const proofs = Array.isArray(proof) ? proof : [proof];
    // The same bound proof verification applies, so a flood of unknown proofs is refused unread either way.
    if (proofs.length > MAX_PROOFS) return { type: 'MALFORMED_PROOF', title: 'The proof is malformed', detail: `more than ${MAX_PROOFS} proofs` };
    if (!proofs.every(isObject)) return { type: 'MALFORMED_PROOF', title: 'The proof is malformed', detail: 'each proof must be an object' };
    const named = proofs.map((p) => (p['type'] === 'DataIntegrityProof' ? `cryptosuite ${String(p['cryptosuite'])}` : String(p['type']))).join(', ');
    return { type: 'UNSUPPORTED_PROOF_SUITE', title: 'The proof suite is not supported', detail: named };
  }
}
