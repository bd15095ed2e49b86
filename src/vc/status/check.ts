import { MAX_BITSTRING_BYTES, MIN_BITSTRING_BITS, parseStatusListIndex } from '../../domain/status-list';
import type { JsonObject, ProofVerification, StatusCheck, StatusListSource, VcProblem } from '../ports';
import { MAX_CLOCK_SKEW_MS } from '../clock-skew';
import { BudgetExceeded, RequestBudget, currentBudget } from '../net/request-budget';
import { readStatusBits } from './read-bits';

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
  /**
   * The request's budget (entries, distinct lists, fetches, decoded bytes, deadline); default
   * the current one (request-budget.ts), else a fresh default budget for this check alone.
   */
  readonly budget?: RequestBudget;
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
/** VCDM 2.0 §7.1 RANGE_ERROR: more entries or lists than a request may make the verifier fetch is the sender's mistake. */
const range = (title: string, detail: string): VcProblem => ({ type: 'RANGE_ERROR', title, detail });

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

/** A well-formed entry, waiting for its list. */
interface Entry {
  readonly where: string;
  readonly purpose: string;
  readonly url: string;
  readonly index: number;
  readonly size: number;
}

/** A list that passed every check, reduced to what its entries need (the list itself is not kept). */
interface ListOutcome {
  readonly problem?: VcProblem;
  readonly purposes?: string[];
  readonly encodedList?: string;
}

/**
 * Checks every BitstringStatusListEntry of `vc` (Bitstring Status List v1.0 §3.2): dereferences each
 * list once, has its proof verified by the caller, and refuses a list that is not by the
 * credential's issuer, is not the list the entry names, has another purpose, is outside its validity
 * period, or is too short for the index. Each entry's bit is reported; the caller decides what a set bit means.
 *
 * Cost is bounded before anything is fetched (review 3, attack 1): the entries and distinct list
 * URLs are admitted against the request's budget as a whole (RANGE_ERROR when over, nothing
 * fetched); lists are read one at a time, and of each only the bits its entries ask for are
 * kept (read-bits.ts), so the memory held does not grow with the number of lists.
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
  const budget = deps.budget ?? currentBudget() ?? new RequestBudget();

  // Counted on the raw array first, so a huge one costs no parsing either.
  if (entries.length > budget.limits.maxStatusEntriesPerCredential) {
    problems.push(range('too many status entries', `credentialStatus has ${entries.length} entries; at most ${budget.limits.maxStatusEntriesPerCredential} are checked per credential`));
    return { checks, problems };
  }

  const outcomes = new Map<number, VcProblem | Entry>();
  for (const [i, entry] of entries.entries()) {
    const where = `credentialStatus${Array.isArray(status) ? `[${i}]` : ''}`;
    if (!isObject(entry)) {
      outcomes.set(i, verification('malformed status entry', `${where} is not an object`));
      continue;
    }
    if (!types(entry.type).includes('BitstringStatusListEntry')) {
      outcomes.set(i, verification('unsupported status type', `${where} has type ${types(entry.type).join(', ') || 'none'}; only BitstringStatusListEntry is checked`));
      continue;
    }
    const purpose = entry.statusPurpose;
    const url = entry.statusListCredential;
    const size = entry.statusSize ?? 1;
    let index: number;
    try {
      index = parseStatusListIndex(entry.statusListIndex, `${where}.statusListIndex`);
    } catch (e) {
      outcomes.set(i, verification('malformed status entry', (e as Error).message));
      continue;
    }
    if (typeof purpose !== 'string' || purpose.length === 0 || typeof url !== 'string' || url.length === 0) {
      outcomes.set(i, verification('malformed status entry', `${where} needs statusPurpose and statusListCredential`));
      continue;
    }
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 1 || size > 32) {
      outcomes.set(i, verification('malformed status entry', `${where}.statusSize must be an integer from 1 to 32`));
      continue;
    }
    outcomes.set(i, { where, purpose, url, index, size });
  }
  const wellFormed = [...outcomes.values()].filter((o): o is Entry => 'url' in o);
  try {
    budget.admitStatus(wellFormed.length, new Set(wellFormed.map((e) => e.url)));
  } catch (e) {
    if (!(e instanceof BudgetExceeded)) throw e;
    problems.push(range(`too many status ${e.resource === 'status lists' ? 'lists' : 'entries'}`, `credentialStatus: ${e.message}; nothing was fetched`));
    return { checks, problems };
  }

  // Entry outcomes by list, each list read once and released before the next.
  const results = new Map<Entry, VcProblem | StatusCheck>();
  for (const url of new Set(wellFormed.map((e) => e.url))) {
    const forList = wellFormed.filter((e) => e.url === url);
    const list = await loadList(url);
    if (list.problem || !list.purposes) {
      for (const e of forList) results.set(e, list.problem ?? retrieval('status list could not be retrieved', url));
      continue;
    }
    const readable = forList.filter((e) => list.purposes!.includes(e.purpose));
    for (const e of forList) {
      if (!readable.includes(e)) results.set(e, verification('status purpose mismatch', `${e.where} is for ${e.purpose}; ${url} is for ${list.purposes.join(', ') || 'nothing'}`));
    }
    if (readable.length === 0) continue;
    const encoded = list.encodedList!;
    let bits: Awaited<ReturnType<typeof readStatusBits>>;
    try {
      bits = await readStatusBits(encoded, readable, { maxBytes: maxListBytes, budget });
    } catch (e) {
      const problem = e instanceof BudgetExceeded ? retrieval('status list could not be read', `${url}: ${e.message}`) : verification('malformed status list', `${url}: ${e instanceof Error ? e.message : 'encodedList does not decode'}`);
      for (const r of readable) results.set(r, problem);
      continue;
    }
    readable.forEach((e, k) => {
      const value = bits.values[k];
      const total = bits.totalBytes;
      if (total !== undefined) {
        const entriesInList = Math.floor((total * 8) / e.size);
        if (entriesInList < MIN_BITSTRING_BITS) return results.set(e, length('status list too short', `${url} holds ${entriesInList} entries; at least ${MIN_BITSTRING_BITS} are required`));
        if (value === undefined) return results.set(e, length('status list index out of range', `${e.where}.statusListIndex ${e.index} is beyond the ${entriesInList} entries of ${url}`));
      }
      if (value === undefined) return results.set(e, length('status list index out of range', `${e.where}.statusListIndex ${e.index} is beyond the largest list read (${maxListBytes} bytes)`));
      return results.set(e, { purpose: e.purpose, set: value !== 0, statusListCredential: url, index: e.index });
    });
  }
  // Reported in entry order (the map was filled in it).
  for (const o of outcomes.values()) {
    const r = 'url' in o ? results.get(o) : o;
    if (r === undefined) continue;
    if ('statusListCredential' in r) checks.push(r);
    else problems.push(r);
  }
  return { checks, problems };

  /** The list at `url`, checked; only its purposes and encodedList leave this function. */
  async function loadList(url: string): Promise<ListOutcome> {
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
    return { purposes: types(subject.statusPurpose), encodedList: subject.encodedList };
  }
}
