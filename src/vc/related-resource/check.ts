import { BudgetExceeded, RequestBudget, currentBudget } from '../net/request-budget';
import { DEFAULT_FETCH_POLICY, type FetchPolicy, guardedGet } from '../net/guarded-fetch';
import type { JsonObject, VcProblem } from '../ports';
import { DigestSyntaxError, type ExpectedDigest, digestMatches, parseDigestMultibase, parseDigestSri } from './digest';

/** Fetches the bytes of a related resource (tests and the composition root choose how). */
export interface RelatedResourceSource {
  fetchResource(url: string, mediaType?: string): Promise<Uint8Array>;
}

/**
 * Related resources over HTTPS through the guarded fetch: SSRF policy, size cap, timeout, and
 * the request's budget (guardedGet charges it). Any media type is accepted: the digest, not
 * the Content-Type, says whether the bytes are the ones the issuer meant. Never cached: the
 * point of the check is that the bytes served now are the ones signed for.
 */
export function createHttpResourceSource(policy: Partial<FetchPolicy> = {}): RelatedResourceSource {
  const effective: FetchPolicy = { ...DEFAULT_FETCH_POLICY, maxBytes: 1024 * 1024, ...policy };
  return {
    fetchResource: async (url, mediaType) => (await guardedGet(url, effective, { accept: mediaType ?? '*/*', contentTypes: 'any' })).body,
  };
}

export interface RelatedResourceOutcome {
  /** Resources whose bytes matched every digest they carry. */
  readonly verified: number;
  readonly problems: VcProblem[];
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const malformed = (title: string, detail: string): VcProblem => ({ type: 'MALFORMED_VALUE_ERROR', title, detail });

/**
 * VCDM 2.0 §5.3: each `relatedResource` is fetched and its bytes compared with its `digestSRI`
 * and/or `digestMultibase` (all present must match); a mismatch is CRYPTOGRAPHIC_SECURITY_ERROR,
 * a resource that cannot be fetched RELATED_RESOURCE_RETRIEVAL_ERROR, either way not verified.
 * Entries are admitted against the request's budget before any fetch (RANGE_ERROR beyond it),
 * and malformed entries or digests are refused without a request.
 */
export async function checkRelatedResources(vc: JsonObject, deps: { readonly source: RelatedResourceSource; readonly budget?: RequestBudget }): Promise<RelatedResourceOutcome> {
  const problems: VcProblem[] = [];
  const related = vc.relatedResource;
  if (related === undefined) return { verified: 0, problems };
  const items = Array.isArray(related) ? related : [related];
  const budget = deps.budget ?? currentBudget() ?? new RequestBudget();
  try {
    budget.admitRelatedResources(items.length);
  } catch (e) {
    if (!(e instanceof BudgetExceeded)) throw e;
    return { verified: 0, problems: [{ type: 'RANGE_ERROR', title: 'too many related resources', detail: `relatedResource has ${items.length} entries: ${e.message}; nothing was fetched` }] };
  }

  const wanted: { where: string; url: string; mediaType?: string; digests: ExpectedDigest[] }[] = [];
  for (const [i, item] of items.entries()) {
    const where = `relatedResource${Array.isArray(related) ? `[${i}]` : ''}`;
    if (!isObject(item) || typeof item.id !== 'string' || item.id.length === 0) {
      problems.push(malformed('malformed related resource', `${where} needs an id (the URL of the resource)`));
      continue;
    }
    const digests: ExpectedDigest[] = [];
    try {
      if (item.digestSRI !== undefined) {
        if (typeof item.digestSRI !== 'string') throw new DigestSyntaxError('digestSRI must be a string');
        digests.push(parseDigestSri(item.digestSRI));
      }
      if (item.digestMultibase !== undefined) {
        if (typeof item.digestMultibase !== 'string') throw new DigestSyntaxError('digestMultibase must be a string');
        digests.push(parseDigestMultibase(item.digestMultibase));
      }
    } catch (e) {
      if (!(e instanceof DigestSyntaxError)) throw e;
      problems.push(malformed('malformed related resource digest', `${where}: ${e.message}`));
      continue;
    }
    if (digests.length === 0) {
      problems.push(malformed('related resource without a digest', `${where} needs digestSRI or digestMultibase`));
      continue;
    }
    wanted.push({ where, url: item.id, ...(typeof item.mediaType === 'string' ? { mediaType: item.mediaType } : {}), digests });
  }

  let verified = 0;
  for (const w of wanted) {
    let body: Uint8Array;
    try {
      body = await deps.source.fetchResource(w.url, w.mediaType);
    } catch (e) {
      problems.push({ type: 'RELATED_RESOURCE_RETRIEVAL_ERROR', title: 'related resource could not be retrieved', detail: `${w.where}: ${e instanceof Error ? e.message : `${w.url} could not be fetched`}` });
      continue;
    }
    const wrong = w.digests.filter((d) => !digestMatches(body, d));
    if (wrong.length > 0) {
      problems.push({ type: 'CRYPTOGRAPHIC_SECURITY_ERROR', title: 'related resource digest mismatch', detail: `${w.where}: ${w.url} does not match its ${wrong.map((d) => d.member).join(' and ')}` });
      continue;
    }
    verified += 1;
  }
  return { verified, problems };
}
