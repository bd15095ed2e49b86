/**
 * Digital Bazaar's bbs-2023 (@digitalbazaar/vc + data-integrity + bbs-2023-cryptosuite) as an
 * independent issuer, holder and verifier for the bbs-2023 interop tests. ESM-only packages, so
 * jest drives this script in a child process: one JSON request on stdin, one JSON answer on stdout.
 * Offline: the document loader serves the published context packages and resolves did:key locally
 * (BLS12-381 G2 Multikeys, `zUC7…`, besides the keys digitalbazaar-suites.mjs knows).
 *
 *   { op: 'sign', credential, mandatoryPointers }       -> { did, verifiableCredential }  (issuer set to a new did:key)
 *   { op: 'derive', verifiableCredential, selectivePointers } -> { verifiableCredential }
 *   { op: 'verify', verifiableCredential }               -> { verified, errors: string[] }
 */
import * as vc from '@digitalbazaar/vc';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { createDiscloseCryptosuite, createSignCryptosuite, createVerifyCryptosuite } from '@digitalbazaar/bbs-2023-cryptosuite';
import * as Bls12381Multikey from '@digitalbazaar/bls12-381-multikey';
import { CachedResolver } from '@digitalbazaar/did-io';
import { driver } from '@digitalbazaar/did-method-key';
import { JsonLdDocumentLoader } from 'jsonld-document-loader';
import { contexts as credentialsContexts } from '@digitalbazaar/credentials-context';
import didContext from 'did-context';
import dataIntegrityContext from '@digitalbazaar/data-integrity-context';
import multikeyContext from '@digitalbazaar/multikey-context';

function documentLoader() {
  const didKey = driver();
  didKey.use({ multibaseMultikeyHeader: 'zUC7', fromMultibase: Bls12381Multikey.from });
  const resolver = new CachedResolver();
  resolver.use(didKey);
  const loader = new JsonLdDocumentLoader();
  for (const map of [credentialsContexts, didContext.contexts, dataIntegrityContext.contexts, multikeyContext.contexts]) {
    for (const [url, document] of map) loader.addStatic(url, document);
  }
  loader.setDidResolver(resolver);
  return loader.build();
}

function messages(error) {
  if (!error) return [];
  const list = Array.isArray(error) ? error : error.errors ?? [error];
  return list.map((e) => String(e?.message ?? e));
}

async function handle(request) {
  const loader = documentLoader();
  if (request.op === 'sign') {
    const keyPair = await Bls12381Multikey.generateBbsKeyPair({ algorithm: Bls12381Multikey.ALGORITHMS.BBS_BLS12381_SHA256 });
    const did = `did:key:${keyPair.publicKeyMultibase}`;
    keyPair.controller = did;
    keyPair.id = `${did}#${keyPair.publicKeyMultibase}`;
    const suite = new DataIntegrityProof({ signer: keyPair.signer(), cryptosuite: createSignCryptosuite({ mandatoryPointers: request.mandatoryPointers }) });
    const verifiableCredential = await vc.issue({ credential: { ...request.credential, issuer: did }, suite, documentLoader: loader });
    return { did, verifiableCredential };
  }
  if (request.op === 'derive') {
    const suite = new DataIntegrityProof({ cryptosuite: createDiscloseCryptosuite({ selectivePointers: request.selectivePointers }) });
    return { verifiableCredential: await vc.derive({ verifiableCredential: request.verifiableCredential, suite, documentLoader: loader }) };
  }
  if (request.op === 'verify') {
    const suite = new DataIntegrityProof({ cryptosuite: createVerifyCryptosuite() });
    const result = await vc.verifyCredential({ credential: request.verifiableCredential, suite, documentLoader: loader });
    const proofErrors = (result.results ?? []).flatMap((r) => messages(r.error));
    return { verified: result.verified === true, errors: [...messages(result.error), ...proofErrors] };
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
