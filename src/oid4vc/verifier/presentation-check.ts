import { DcqlPresentationResult, type DcqlQuery } from 'dcql';
import { isAppError } from '../../errors';
import { WalletError } from './wallet-error';
import { type ClaimPath, disclosedPaths, pathRequested } from './disclosed-paths';
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

async function checkSdJwt(q: CredentialQuery, entry: Entry, ctx: CheckContext): Promise<{ credential: PresentedCredential; dcql?: Record<string, unknown> }> {
  const verify = ctx.formats['dc+sd-jwt'];
  const base = { queryId: q.id, format: 'dc+sd-jwt' };
  if (!verify) return { credential: { ...base, verified: false, claims: {}, checks: [{ check: 'format', passed: false, message: 'dc+sd-jwt is not supported' }] } };
  if (typeof entry !== 'string') throw new WalletError('invalid_request', `vp_token.${q.id}: a dc+sd-jwt presentation is a string`);
  let disclosed: ClaimPath[];
  try {
    disclosed = disclosedPaths(entry);
  } catch {
    throw new WalletError('invalid_request', `vp_token.${q.id}: not an SD-JWT presentation`);
  }
  let r: Awaited<ReturnType<NonNullable<PresentationFormats['dc+sd-jwt']>>>;
  try {
    r = await verify(entry, { keyBinding: { aud: ctx.clientId, nonce: ctx.nonce, now: ctx.now, maxAgeSeconds: KB_JWT_MAX_AGE_SECONDS }, now: ctx.now });
  } catch (e) {
    const p = problemOf(e);
    return { credential: { ...base, verified: false, claims: {}, checks: [failed(p)] } };
  }
  const wanted = requestedPaths(q);
  const extra = disclosed.filter((p) => !pathRequested(p, wanted));
  const disclosure: CredentialCheck = extra.length === 0 ? { check: 'disclosure', passed: true } : { check: 'disclosure', passed: false, message: `disclosed without being requested: ${extra.map((p) => p.join('.')).join(', ')}` };
  const checks: CredentialCheck[] = [{ check: 'signature, key binding, status and validity', passed: r.verified }, ...r.problems.map(failed), disclosure];
  const verified = r.verified && disclosure.passed;
  const credential: PresentedCredential = { ...base, verified, ...(r.vct !== undefined ? { type: r.vct } : {}), ...(r.iss !== undefined ? { issuer: r.iss } : {}), claims: r.claims, checks };
  return { credential, ...(verified ? { dcql: { credential_format: 'dc+sd-jwt', vct: r.vct ?? '', claims: r.claims, cryptographic_holder_binding: true } } : {}) };
}

async function checkMdoc(q: CredentialQuery, entry: Entry, ctx: CheckContext): Promise<{ credential: PresentedCredential; dcql?: Record<string, unknown> }> {
  const verify = ctx.formats.mso_mdoc;
  const base = { queryId: q.id, format: 'mso_mdoc' };
  if (!verify) return { credential: { ...base, verified: false, claims: {}, checks: [{ check: 'format', passed: false, message: 'mso_mdoc is not supported' }] } };
  if (typeof entry !== 'string' || !/^[A-Za-z0-9_-]+$/.test(entry)) throw new WalletError('invalid_request', `vp_token.${q.id}: an mso_mdoc presentation is a base64url DeviceResponse`);
  const meta = q.meta as { doctype_value?: string } | undefined;
  let r: Awaited<ReturnType<NonNullable<PresentationFormats['mso_mdoc']>>>;
  try {
    r = await verify(Buffer.from(entry, 'base64url'), {
      clientId: ctx.clientId,
      responseUri: ctx.responseUri,
      nonce: ctx.nonce,
      ...(ctx.jwkThumbprint ? { jwkThumbprint: ctx.jwkThumbprint } : {}),
      now: ctx.now,
      ...(meta?.doctype_value ? { expectedDocType: meta.doctype_value } : {}),
    });
  } catch (e) {
    return { credential: { ...base, verified: false, claims: {}, checks: [failed(problemOf(e))] } };
  }
  const doc = r.documents[0];
  const claims = doc?.claims ?? {};
  const wanted = requestedPaths(q);
  const extra = Object.entries(claims).flatMap(([ns, elements]) => Object.keys(elements).map((el) => [ns, el] as const)).filter((p) => !pathRequested(p, wanted));
  const disclosure: CredentialCheck = extra.length === 0 ? { check: 'disclosure', passed: true } : { check: 'disclosure', passed: false, message: `disclosed without being requested: ${extra.map((p) => p.join('.')).join(', ')}` };
  const single: CredentialCheck = r.documents.length === 1 ? { check: 'documents', passed: true } : { check: 'documents', passed: false, message: `expected one document, got ${r.documents.length}` };
  const checks: CredentialCheck[] = [{ check: 'device signature, issuer chain and validity', passed: r.verified }, ...r.problems.map(failed), single, disclosure];
  const verified = r.verified && disclosure.passed && single.passed;
  const credential: PresentedCredential = { ...base, verified, ...(doc ? { type: doc.docType } : {}), claims, checks };
  return { credential, ...(verified && doc ? { dcql: { credential_format: 'mso_mdoc', doctype: doc.docType, namespaces: claims, cryptographic_holder_binding: true } } : {}) };
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
      const checked = q.format === 'dc+sd-jwt' || q.format === 'vc+sd-jwt' ? await checkSdJwt(q, entry, ctx) : q.format === 'mso_mdoc' ? await checkMdoc(q, entry, ctx) : undefined;
      if (!checked) throw new WalletError('vp_formats_not_supported', `${q.format} is not supported`);
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
