import { MAX_BITSTRING_BYTES, MIN_BITSTRING_BITS, parseStatusListIndex } from '../../domain/status-list';
import type { JsonObject, ProofVerification, StatusCheck, StatusListSource, VcProblem } from '../ports';
import { decodeStatusList, statusValue } from './codec';
import { MAX_CLOCK_SKEW_MS } from '../clock-skew';

/**
 * Problem types are the error names of Bitstring Status List v1.0 §3.2 (STATUS_RETRIEVAL_ERROR,
 * STATUS_VERIFICATION_ERROR, STATUS_LIST_LENGTH_ERROR); the title says which check failed.
 */
export interface StatusCheckDeps {
  readonly source: StatusListSource;
  /** Verifies the list credential's proof (the caller's proof suites and resolver). */
  readonly verifyListCredential: (list: JsonObject) => Promise<ProofVerification>;
  /** Validity of the list is judged at this instant (default now). */
  readonly now?: Date;
  /** Largest decoded bitstring accepted; default 16 MiB. */
  readonly maxListBytes?: number;
}

export interface StatusCheckOutcome {
  /** One per entry that could be checked, with its bit; a set bit is reported here, not as a problem. */
  readonly checks: StatusCheck[];
  /** Every entry that could not be checked, and why; a credential with any is not known to be in good standing. */
  readonly problems: VcProblem[];
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function idOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (isObject(v) && typeof v.id === 'string') return v.id;
  return undefined;
}

function types(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : [];
}

const retrieval = (title: string, detail: string): VcProblem => ({ type: 'STATUS_RETRIEVAL_ERROR', title, detail });
const verification = (title: string, detail: string): VcProblem => ({ type: 'STATUS_VERIFICATION_ERROR', title, detail });
const length = (title: string, detail: string): VcProblem => ({ type: 'STATUS_LIST_LENGTH_ERROR', title, detail });

/** The list's validity period (VCDM 2.0 validFrom/validUntil, 1.1 issuanceDate/expirationDate) at `now`, allowing the issuer's clock to run ahead by MAX_CLOCK_SKEW_MS. */
function validityProblem(list: JsonObject, url: string, now: Date): VcProblem | undefined {
  const from = list.validFrom ?? list.issuanceDate;
  const until = list.validUntil ?? list.expirationDate;
  if (typeof from === 'string' && Date.parse(from) > now.getTime() + MAX_CLOCK_SKEW_MS) return verification('status list not yet valid', `${url} is valid from ${from}`);
  if (typeof until === 'string' && Date.parse(until) <= now.getTime()) return verification('status list expired', `${url} expired at ${until}`);
  if ((from !== undefined && typeof from !== 'string') || (typeof from === 'string' && Number.isNaN(Date.parse(from)))) return verification('malformed status list', `${url} has a malformed validity date`);
  if ((until !== undefined && typeof until !== 'string') || (typeof until === 'string' && Number.isNaN(Date.parse(until)))) return verification('malformed status list', `${url} has a malformed validity date`);
  return undefined;
}

interface ListOutcome {
  readonly list?: JsonObject;
  readonly bits?: Uint8Array;
  readonly problem?: VcProblem;
}

/**
 * Checks every BitstringStatusListEntry of `vc` (Bitstring Status List v1.0 §3.2): dereferences each
 * list once, has its proof verified by the caller, and refuses a list that is not by the
 * credential's issuer, is not the list the entry names, has another purpose, is outside its validity
 * period, or is too short for the index. Each entry's bit is reported; the caller decides what a set bit means.
 */
export async function checkCredentialStatus(vc: JsonObject, deps: StatusCheckDeps): Promise<StatusCheckOutcome> {
  const checks: StatusCheck[] = [];
  const problems: VcProblem[] = [];
  const status = vc.credentialStatus;
  if (status === undefined) return { checks, problems };
  const entries = Array.isArray(status) ? status : [status];
  const issuer = idOf(vc.issuer);
  const now = deps.now ?? new Date();
  const maxListBytes = deps.maxListBytes ?? MAX_BITSTRING_BYTES;
  const lists = new Map<string, Promise<ListOutcome>>();

  const loadList = (url: string): Promise<ListOutcome> => {
    let pending = lists.get(url);
    if (!pending) {
      pending = (async (): Promise<ListOutcome> => {
        let list: JsonObject;
        try {
          list = await deps.source.fetchStatusListCredential(url);
        } catch (e) {
          return { problem: retrieval('status list could not be retrieved', e instanceof Error ? e.message : `${url} could not be retrieved`) };
        }
        let proof: ProofVerification;
        try {
          proof = await deps.verifyListCredential(list);
        } catch {
          proof = { verified: false, errors: [] };
        }
        if (!proof.verified) {
          const why = proof.errors.map((e) => e.detail ?? e.title).join('; ');
          return { problem: verification('status list proof is not valid', why ? `${url}: ${why}` : url) };
        }
        if (list.id !== undefined && list.id !== url) return { problem: verification('status list is not the one referenced', `${url} answered a list whose id is ${String(list.id)}`) };
        if (!types(list.type).includes('BitstringStatusListCredential')) return { problem: verification('not a BitstringStatusListCredential', url) };
        const subject = list.credentialSubject;
        if (!isObject(subject) || !types(subject.type).includes('BitstringStatusList') || typeof subject.encodedList !== 'string') {
          return { problem: verification('malformed status list', `${url} has no BitstringStatusList subject with an encodedList`) };
        }
        if (issuer === undefined || idOf(list.issuer) !== issuer) {
          return { problem: verification('status list issuer differs from the credential issuer', `${url} is issued by ${idOf(list.issuer) ?? 'nobody'}`) };
        }
        const invalid = validityProblem(list, url, now);
        if (invalid) return { problem: invalid };
        try {
          return { list, bits: decodeStatusList(subject.encodedList, maxListBytes) };
        } catch (e) {
          return { problem: verification('malformed status list', `${url}: ${e instanceof Error ? e.message : 'encodedList does not decode'}`) };
        }
      })();
      lists.set(url, pending);
    }
    return pending;
  };

  for (const [i, entry] of entries.entries()) {
    const where = `credentialStatus${Array.isArray(status) ? `[${i}]` : ''}`;
    if (!isObject(entry)) {
      problems.push(verification('malformed status entry', `${where} is not an object`));
      continue;
    }
    if (!types(entry.type).includes('BitstringStatusListEntry')) {
      problems.push(verification('unsupported status type', `${where} has type ${types(entry.type).join(', ') || 'none'}; only BitstringStatusListEntry is checked`));
      continue;
    }
    const purpose = entry.statusPurpose;
    const url = entry.statusListCredential;
    const size = entry.statusSize ?? 1;
    let index: number;
    try {
      index = parseStatusListIndex(entry.statusListIndex, `${where}.statusListIndex`);
    } catch (e) {
      problems.push(verification('malformed status entry', (e as Error).message));
      continue;
    }
    if (typeof purpose !== 'string' || purpose.length === 0 || typeof url !== 'string' || url.length === 0) {
      problems.push(verification('malformed status entry', `${where} needs statusPurpose and statusListCredential`));
      continue;
    }
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 1 || size > 32) {
      problems.push(verification('malformed status entry', `${where}.statusSize must be an integer from 1 to 32`));
      continue;
    }
    const outcome = await loadList(url);
    if (outcome.problem || !outcome.list || !outcome.bits) {
      problems.push(outcome.problem ?? retrieval('status list could not be retrieved', url));
      continue;
    }
    const subject = outcome.list.credentialSubject as JsonObject;
    const listPurposes = types(subject.statusPurpose);
    if (!listPurposes.includes(purpose)) {
      problems.push(verification('status purpose mismatch', `${where} is for ${purpose}; ${url} is for ${listPurposes.join(', ') || 'nothing'}`));
      continue;
    }
    const entriesInList = Math.floor((outcome.bits.length * 8) / size);
    if (entriesInList < MIN_BITSTRING_BITS) {
      problems.push(length('status list too short', `${url} holds ${entriesInList} entries; at least ${MIN_BITSTRING_BITS} are required`));
      continue;
    }
    const value = statusValue(outcome.bits, index, size);
    if (value === undefined) {
      problems.push(length('status list index out of range', `${where}.statusListIndex ${index} is beyond the ${entriesInList} entries of ${url}`));
      continue;
    }
    checks.push({ purpose, set: value !== 0, statusListCredential: url, index });
  }
  return { checks, problems };
}
