import { DcqlPresentationResult, type DcqlQuery } from 'dcql';
import { isAppError } from '../../errors';
import { WalletError } from './wallet-error';
import { pathRequested } from './claim-paths';
import type { PresentationFormats, Problem } from './ports';
import type { CredentialCheck, PresentationResult, PresentedCredential } from './request-record';

/** How old a key-binding JWT may be (its iat), in seconds. */
export const KB_JWT_MAX_AGE_SECONDS = 300;

export interface CheckContext {
  readonly formats: PresentationFormats;
  readonly clientId: string;
  readonly nonce: string;
  readonly responseUri: string;
  /** JWK thumbprint of the response-encryption key (mdoc SessionTranscript, OID4VP 1.0 Annex B.2.6.1). */
  readonly jwkThumbprint?: Uint8Array;
  readonly now: Date;
}

type CredentialQuery = DcqlQuery['credentials'][number];
type Entry = string | Record<string, unknown>;

/** Every claim path the query names, across its claim sets. */
function requestedPaths(q: CredentialQuery): (string | number | null)[][] {
  return (q.claims ?? []).map((c) => ('path' in c && Array.isArray(c.path) ? [...(c.path as (string | number | null)[])] : 'namespace' in c ? [String(c.namespace), String(c.claim_name)] : []));
}

const failed = (p: Problem): CredentialCheck => ({ check: p.code, passed: false, message: p.message });
const problemOf = (e: unknown): Problem => ({ code: isAppError(e) ? e.code : 'MALFORMED', message: e instanceof Error ? e.message : 'could not be read' });

/**
 * One vp_token entry, checked by the format its credential query names (looked up, never branched
 * on: habit 13), then held to the query: nothing disclosed beyond the requested claim paths.
 */
async function checkEntry(q: CredentialQuery, entry: Entry, ctx: CheckContext): Promise<{ credential: PresentedCredential; dcql?: Record<string, unknown> }> {
  const format = ctx.formats.forDcqlFormat(q.format);
  if (!format) throw new WalletError('vp_formats_not_supported', `${q.format} is not supported`);
  const base = { queryId: q.id, format: format.id };
  let r: Awaited<ReturnType<typeof format.verifyPresentation>>;
  try {
    r = await format.verifyPresentation(entry, { clientId: ctx.clientId, nonce: ctx.nonce, responseUri: ctx.responseUri, maxAgeSeconds: KB_JWT_MAX_AGE_SECONDS, ...(ctx.jwkThumbprint ? { jwkThumbprint: ctx.jwkThumbprint } : {}), ...(q.meta ? { meta: q.meta as Record<string, unknown> } : {}) }, ctx.now);
  } catch (e) {
    return { credential: { ...base, verified: false, claims: {}, checks: [failed(problemOf(e))] } };
  }
  if ('malformed' in r) throw new WalletError('invalid_request', `vp_token.${q.id}: ${r.malformed}`);
  const wanted = requestedPaths(q);
  const extra = r.disclosed.filter((p) => !pathRequested(p, wanted));
  const disclosure: CredentialCheck = extra.length === 0 ? { check: 'disclosure', passed: true } : { check: 'disclosure', passed: false, message: `disclosed without being requested: ${extra.map((p) => p.join('.')).join(', ')}` };
  const checks: CredentialCheck[] = [{ check: r.checked, passed: r.verified }, ...r.problems.map(failed), disclosure];
  const verified = r.verified && disclosure.passed;
  const credential: PresentedCredential = { ...base, verified, ...(r.type !== undefined ? { type: r.type } : {}), ...(r.issuer !== undefined ? { issuer: r.issuer } : {}), claims: r.claims, checks };
  return { credential, ...(verified ? { dcql: r.dcql } : {}) };
}

/**
 * Verifies every presentation of a DCQL vp_token and evaluates the query over what verified.
 * Malformed tokens (unknown query ids, wrong shapes) are the wallet's protocol errors
 * (WalletError); credentials that do not verify are an answer (verified false), per habit 2.
 */
export async function checkPresentations(query: DcqlQuery, presentations: Record<string, Entry[]>, ctx: CheckContext): Promise<Omit<PresentationResult, 'receivedAt'>> {
  const credentials: PresentedCredential[] = [];
  const record: Record<string, Record<string, unknown>[]> = {};
  for (const [queryId, entries] of Object.entries(presentations)) {
    const q = query.credentials.find((c) => c.id === queryId);
    if (!q) throw new WalletError('invalid_request', `vp_token names ${queryId}, which the request's DCQL query does not`);
    if (entries.length > 1 && !q.multiple) throw new WalletError('invalid_request', `vp_token.${queryId}: one presentation expected`);
    for (const entry of entries) {
      const checked = await checkEntry(q, entry, ctx);
      credentials.push(checked.credential);
      if (checked.dcql) (record[queryId] ??= []).push(checked.dcql);
    }
  }
  const problems: Problem[] = [];
  let dcqlSatisfied = false;
  try {
    dcqlSatisfied = DcqlPresentationResult.fromDcqlPresentation(record as never, { dcqlQuery: query }).can_be_satisfied;
    if (!dcqlSatisfied) problems.push({ code: 'DCQL_NOT_SATISFIED', message: 'the verified credentials do not satisfy the DCQL query (a requested credential or claim is missing)' });
  } catch (e) {
    problems.push({ code: 'DCQL_NOT_SATISFIED', message: e instanceof Error ? e.message : 'the DCQL query is not satisfied' });
  }
  for (const c of credentials) if (!c.verified) problems.push({ code: 'CREDENTIAL_NOT_VERIFIED', message: `the ${c.format} credential for ${c.queryId} did not verify` });
  return { verified: dcqlSatisfied && credentials.length > 0 && credentials.every((c) => c.verified), dcqlSatisfied, credentials, problems };
}
