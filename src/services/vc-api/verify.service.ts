import { RetryLaterError, invalidInput } from '../../errors';
import type { Clock } from '../../domain/ports';
import { formats as registered, type FormatRegistry } from '../../formats/registry';
import type { FormatVerification } from '../../formats/format';
import { checkCredentialShape, checkPresentationShape, checkValidityPeriod } from '../../vc/model';
import { checkCredentialStatus } from '../../vc/status';
import { type RelatedResourceSource, checkRelatedResources } from '../../vc/related-resource';
import type { DidResolver, JsonObject, StatusListSource, VcProblem } from '../../vc/ports';
import { type ProblemDetail, type VcVerificationResult, problem, toProblemDetail } from './problems';
import { type CredentialCheck, credentialChecksOf } from './verify-checks';

export interface VerifyCredentialInput {
  readonly verifiableCredential: unknown;
  readonly options?: Record<string, unknown> | undefined;
}

export interface VerifyPresentationInput {
  readonly verifiablePresentation?: unknown;
  /** The spec's proofless form: `{ presentation }` is verified without a proof. */
  readonly presentation?: unknown;
  readonly options?: Record<string, unknown> | undefined;
}

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);
const idOf = (v: unknown): string | undefined => (typeof v === 'string' ? v : isObject(v) && typeof v['id'] === 'string' ? v['id'] : undefined);
const STATUS_PROBLEM: Readonly<Record<string, string>> = { revocation: 'REVOKED', suspension: 'SUSPENDED' };
/** Most credentials a presentation may carry (each is verified: resolution, proofs, status). */
const MAX_PRESENTED = 32;

/** Accumulates one verification's checks and problems. */
class Report {
  readonly checks: string[] = [];
  readonly warnings: ProblemDetail[] = [];
  readonly errors: ProblemDetail[] = [];
  constructor(private readonly prefix?: string) {}
  check(name: string): void {
    if (!this.checks.includes(name)) this.checks.push(name);
  }
  error(p: VcProblem): void {
    this.errors.push(toProblemDetail(p, this.prefix));
  }
  warn(p: VcProblem): void {
    this.warnings.push(toProblemDetail(p, this.prefix));
  }
  result(): VcVerificationResult {
    return { verified: this.errors.length === 0, checks: this.checks, warnings: this.warnings, errors: this.errors };
  }
}

/**
 * VC-API verification of anyone's credentials and presentations: the issuer's DID is resolved
 * (did:key locally, did:web over HTTPS, this service's own method from its records), the proof is
 * checked against a method the issuer controls for assertions, the validity period against now,
 * and every status entry against its list (this service's lists from the database, others' over
 * HTTPS), each list's own proof included. A failed check is an answer, not an exception.
 */
export class VcVerifyService {
  constructor(
    private readonly resolver: DidResolver,
    private readonly statusSource: StatusListSource,
    private readonly clock: Clock,
    private readonly relatedResources: RelatedResourceSource,
    private readonly formats: FormatRegistry = registered,
  ) {}

  async verifyCredential(input: VerifyCredentialInput): Promise<VcVerificationResult> {
    const vc = input.verifiableCredential;
    if (!isObject(vc) && typeof vc !== 'string') throw invalidInput('verifiableCredential must be a credential object or a JWT', [{ field: 'verifiableCredential', message: 'must be an object or a compact JWT' }]);
    const checks = credentialChecksOf(input.options);
    const report = new Report();
    await this.credentialInto(report, vc, checks);
    return report.result();
  }

  async verifyPresentation(input: VerifyPresentationInput): Promise<VcVerificationResult> {
    const options = input.options ?? {};
    const challenge = optionalString(options, 'challenge');
    const domain = optionalString(options, 'domain');
    const proofless = input.verifiablePresentation === undefined;
    const vp = proofless ? input.presentation : input.verifiablePresentation;
    if (!isObject(vp) && typeof vp !== 'string') throw invalidInput('verifiablePresentation must be a presentation object or a JWT', [{ field: 'verifiablePresentation', message: 'must be an object or a compact JWT' }]);
    const report = new Report();
    // A presentation no format claims is read as an unsecured W3C presentation: with no proof it
    // is the spec's proofless form, with a proof nobody knows it is refused below.
    const format = this.formats.detectPresentation(vp);
    const readable = format ? format.read?.(vp) : isObject(vp) ? vp : undefined;
    let presentation: JsonObject | undefined;
    if (readable === undefined && format !== undefined) {
      // The signature encloses the presentation (a JWT): nothing of it is read before it is opened.
      report.check('proof');
      const r = await safely(() => format.presentation!.verify(vp, { resolver: this.resolver, purpose: 'authentication', ...(challenge !== undefined ? { challenge } : {}), ...(domain !== undefined ? { domain } : {}) }));
      r.problems.forEach((e) => report.error(e));
      presentation = r.credential;
    } else if (readable === undefined) {
      report.check('proof');
      report.error(this.formats.unrecognised(vp));
    } else {
      presentation = readable;
      const shape = checkPresentationShape(presentation);
      shape.forEach((p) => report.error(p));
      if (shape.length > 0) return report.result();
      const holder = idOf(presentation['holder']);
      if (presentation['proof'] === undefined) {
        if (!proofless) report.error(problem('PROOF_VERIFICATION_ERROR', 'The presentation has no proof', 'send it as `presentation` to verify it without one'));
        else report.warn(problem('NO_PROOF', 'The presentation was verified without a proof', 'nothing binds it to its holder'));
        if (challenge !== undefined || domain !== undefined) report.error(problem('PROOF_VERIFICATION_ERROR', 'A challenge or domain was expected but the presentation has no proof'));
      } else {
        report.check('proof');
        if (holder === undefined) report.warn(problem('NO_HOLDER', 'The presentation names no holder', 'its proof is not bound to a holder'));
        else report.check('holder');
        if (format === undefined) report.error(this.formats.unrecognised(presentation));
        else {
          const r = await safely(() =>
            format.presentation!.verify(presentation!, {
              resolver: this.resolver,
              purpose: 'authentication',
              ...(challenge !== undefined ? { challenge } : {}),
              ...(domain !== undefined ? { domain } : {}),
              ...(holder !== undefined ? { expectedController: holder } : {}),
            }),
          );
          r.problems.forEach((e) => report.error(e));
        }
      }
    }
    if (challenge !== undefined) report.check('challenge');
    else if (!proofless) report.warn(problem('NO_CHALLENGE', 'No challenge was given', 'a replayed presentation would verify: pass options.challenge'));
    if (domain !== undefined) report.check('domain');
    if (presentation) await this.presentedInto(report, presentation['verifiableCredential']);
    return report.result();
  }

  private async presentedInto(report: Report, members: unknown): Promise<void> {
    if (members === undefined) return;
    const list = Array.isArray(members) ? members : [members];
    if (list.length > MAX_PRESENTED) {
      report.error(problem('RANGE_ERROR', `A presentation may carry at most ${MAX_PRESENTED} credentials`));
      return;
    }
    report.check('credentials');
    for (const [i, member] of list.entries()) {
      const inner = new Report(`verifiableCredential[${i}]`);
      if (!isObject(member) && typeof member !== 'string') inner.error(problem('PARSING_ERROR', 'A presented credential is neither an object nor a JWT'));
      else await this.credentialInto(inner, member, ALL_CHECKS);
      report.errors.push(...inner.errors);
      report.warnings.push(...inner.warnings);
    }
  }

  private async credentialInto(report: Report, vc: JsonObject | string, checks: ReadonlySet<CredentialCheck>): Promise<void> {
    const format = this.formats.detect(vc);
    // Embedded proofs sit beside what they sign: the document is read (and its shape checked)
    // first. A JWT's signature encloses its credential, which exists only once it is opened.
    const readable = format ? format.read?.(vc) : isObject(vc) ? vc : undefined;
    if (readable !== undefined) {
      const shape = checkCredentialShape(readable);
      shape.forEach((p) => report.error(p));
      // A document that is not a credential has nothing a proof could be checked against.
      if (shape.length > 0) return;
    }
    let credential = readable;
    if (!checks.has('proof') && readable !== undefined) {
      // The caller did not ask for the proof, and the credential can be read without it.
    } else if (format === undefined) {
      report.check('proof');
      report.error(this.formats.unrecognised(vc));
      // Named as checked, as for any failed proof: its failure already makes the answer false.
      if (checks.has('issuer')) report.check('issuer');
    } else {
      report.check('proof');
      const r = await safely(() => format.verify(vc, { resolver: this.resolver, purpose: 'assertionMethod' }));
      r.problems.forEach((e) => report.error(e));
      credential = readable ?? r.credential;
      if (!credential) return;
      if (checks.has('issuer')) {
        report.check('issuer');
        if (!r.issuerBound) issuerBindingProblems(credential, r.controllers).forEach((p) => report.error(p));
      }
      if (readable === undefined) checkCredentialShape(credential).forEach((p) => report.error(p));
    }
    if (!credential) return;
    if (checks.has('validity')) {
      report.check('validity');
      checkValidityPeriod(credential, this.clock.now()).forEach((p) => report.error(p));
    }
    if (checks.has('credentialStatus') && credential['credentialStatus'] !== undefined) {
      report.check('credentialStatus');
      await this.statusInto(report, credential);
    }
    // VCDM 2.0 §5.3: the bytes each relatedResource names now must be the ones its digest fixed.
    if (checks.has('relatedResource') && credential['relatedResource'] !== undefined) {
      report.check('relatedResource');
      (await checkRelatedResources(credential, { source: this.relatedResources })).problems.forEach((p) => report.error(p));
    }
  }

  private async statusInto(report: Report, credential: JsonObject): Promise<void> {
    const issuer = idOf(credential['issuer']);
    const { checks, problems } = await checkCredentialStatus(credential, {
      // The clock that dates our own lists' validFrom judges them too.
      now: this.clock.now(),
      source: this.statusSource,
      verifyListCredential: async (list) => {
        // A list speaks for the credential's issuer only if that issuer signed it.
        if (issuer === undefined || idOf(list['issuer']) !== issuer) {
          return { verified: false, errors: [problem('STATUS_VERIFICATION_ERROR', 'The status list credential is not issued by the credential issuer')] };
        }
        const format = this.formats.detect(list);
        if (!format) return { verified: false, errors: [this.formats.unrecognised(list)] };
        const r = await format.verify(list, { resolver: this.resolver, purpose: 'assertionMethod', expectedController: issuer });
        return { verified: r.verified, errors: r.problems, ...(r.suite !== undefined ? { suite: r.suite } : {}) };
      },
    });
    const seen = new Set(problems.map((p) => p.type));
    problems.forEach((p) => report.error(p));
    for (const c of checks) {
      if (!c.set) continue;
      const type = STATUS_PROBLEM[c.purpose];
      // Other purposes (e.g. message) carry information, not a verdict.
      if (type === undefined) report.warn(problem('STATUS_SET', `Status "${c.purpose}" is set`, `${c.statusListCredential}#${c.index}`));
      else if (!seen.has(type)) report.error(problem(type, c.purpose === 'revocation' ? 'The credential has been revoked' : 'The credential is suspended', `${c.statusListCredential}#${c.index}`));
    }
  }
}

const ALL_CHECKS = credentialChecksOf(undefined);

/**
 * The issuer check: every proof was made with a method the credential's issuer controls. Unknown
 * controllers (a method that did not dereference) add nothing: the proof check has failed already.
 */
function issuerBindingProblems(vc: JsonObject, controllers: readonly string[] | undefined): VcProblem[] {
  const issuer = idOf(vc['issuer']);
  if (controllers === undefined) return [];
  return controllers
    .filter((c) => c !== issuer)
    .map((c) => problem('CONTROLLER_MISMATCH', 'The credential was not signed by a key its issuer controls', `issuer ${String(issuer)}, key controlled by ${c}`));
}

function optionalString(options: Record<string, unknown>, key: string): string | undefined {
  const v = options[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.length === 0) throw invalidInput(`options.${key} must be a non-empty string`, [{ field: `options.${key}`, message: 'must be a non-empty string' }]);
  return v;
}

/**
 * A verifier that throws on hostile input (malformed proofs, unresolvable DIDs) still yields an
 * answer: the exception becomes a failed proof check. AppErrors of infrastructure (a DID host
 * that is down) are answers too, with their message.
 */
async function safely(run: () => Promise<FormatVerification>): Promise<FormatVerification> {
  try {
    return await run();
  } catch (e) {
    // Out of time or capacity (a proof worker over its deadline): no verdict on the proof, so the
    // caller gets 503 + Retry-After instead of a false "does not verify".
    if (e instanceof RetryLaterError) throw e;
    const detail = e instanceof Error && e.name === 'AppError' ? e.message : 'the proof could not be checked';
    return { verified: false, issuerBound: false, problems: [problem('PROOF_VERIFICATION_ERROR', 'The proof could not be verified', detail)] };
  }
}
