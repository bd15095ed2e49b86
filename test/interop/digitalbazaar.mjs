/**
 * Digital Bazaar's implementation as an independent party for the interop tests. Its packages are
 * ESM-only, so jest drives this script in a child process (test/support/vc/digitalbazaar.ts): one
 * JSON request on stdin, one JSON answer on stdout. Offline: the document loader serves the
 * published context packages and resolves did:key locally (Multikey documents, as did:key v0.7).
 *
 *   { op: 'sign', suite, keyType, credential }  -> { did, verifiableCredential }   (issuer set to the new did:key)
 *   { op: 'verify', verifiableCredential }       -> { verified, errors: string[] }
 *
 * `verify` may also carry `fetchPrefixes: string[]` (URLs under them, e.g. a running Credgate's
 * status lists, are fetched over HTTP by the document loader; everything else stays offline) and
 * `checkStatus: true` (BitstringStatusListEntry checked with @digitalbazaar/vc-bitstring-status-list,
 * the list credential verified and its issuer matched); the answer then has `status: [{ purpose, status }]`.
 */
import * as vc from '@digitalbazaar/vc';
import { checkStatus } from '@digitalbazaar/vc-bitstring-status-list';
import { documentLoader, keyPairFor, signingSuite, verifyingSuites } from './digitalbazaar-suites.mjs';

/** The static loader, plus plain HTTP(S) GETs for URLs under the allowed prefixes only. */
function fetchingLoader(staticLoader, prefixes) {
  if (!prefixes || prefixes.length === 0) return staticLoader;
  return async (url) => {
    if (!prefixes.some((p) => url.startsWith(p))) return staticLoader(url);
    const res = await fetch(url, { headers: { accept: 'application/vc, application/ld+json;q=0.9, application/json;q=0.5' } });
    if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
    return { contextUrl: null, documentUrl: url, document: await res.json() };
  };
}

function messages(error) {
  if (!error) return [];
  const list = Array.isArray(error) ? error : error.errors ?? [error];
  return list.map((e) => String(e?.message ?? e));
}

async function handle(request) {
  const loader = fetchingLoader(documentLoader(request.contexts), request.fetchPrefixes);
  if (request.op === 'sign') {
    const { did, keyPair } = await keyPairFor(request.keyType);
    const credential = { ...request.credential, issuer: did };
    const verifiableCredential = await vc.issue({ credential, suite: signingSuite(request.suite, keyPair.signer()), documentLoader: loader });
    return { did, verifiableCredential };
  }
  if (request.op === 'verify') {
    const status = request.checkStatus ? { checkStatus: (options) => checkStatus({ ...options, verifyBitstringStatusListCredential: true, verifyMatchingIssuers: true }) } : {};
    const result = await vc.verifyCredential({ credential: request.verifiableCredential, suite: verifyingSuites(), documentLoader: loader, ...status });
    const proofErrors = (result.results ?? []).flatMap((r) => messages(r.error));
    const statusErrors = messages(result.statusResult?.error);
    const statuses = (result.statusResult?.results ?? []).map((r) => ({ purpose: r.credentialStatus?.statusPurpose, status: r.status }));
    return { verified: result.verified === true, errors: [...messages(result.error), ...proofErrors, ...statusErrors], ...(request.checkStatus ? { status: statuses } : {}) };
  }
  throw new Error(`unknown op ${request.op}`);
}

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
  handle(JSON.parse(input)).then(
    (answer) => process.stdout.write(JSON.stringify(answer)),
    (error) => {
      process.stdout.write(JSON.stringify({ failure: String(error?.stack ?? error) }));
      process.exitCode = 1;
    },
  );
});
