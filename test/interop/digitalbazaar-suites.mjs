/**
 * Digital Bazaar's implementation, set up once for everything that drives it: the interop script
 * (digitalbazaar.mjs, one request per child process) and the VC-API benchmark's in-process runner
 * (bench/digitalbazaar-runner.mjs). Offline: the document loader serves the published context
 * packages and resolves did:key locally (Multikey documents, as did:key v0.7).
 */
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite as eddsaRdfc2022 } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import { createSignCryptosuite as jcsSign, createVerifyCryptosuite as jcsVerify } from '@digitalbazaar/eddsa-jcs-2022-cryptosuite';
import { cryptosuite as ecdsaRdfc2019 } from '@digitalbazaar/ecdsa-rdfc-2019-cryptosuite';
import { Ed25519Signature2020 } from '@digitalbazaar/ed25519-signature-2020';
import * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey';
import * as EcdsaMultikey from '@digitalbazaar/ecdsa-multikey';
import { CachedResolver } from '@digitalbazaar/did-io';
import { driver } from '@digitalbazaar/did-method-key';
import { JsonLdDocumentLoader } from 'jsonld-document-loader';
import { contexts as credentialsContexts } from '@digitalbazaar/credentials-context';
import didContext from 'did-context';
import ed25519Context from 'ed25519-signature-2020-context';
import dataIntegrityContext from '@digitalbazaar/data-integrity-context';
import multikeyContext from '@digitalbazaar/multikey-context';
import { contexts as statusContexts } from '@digitalbazaar/vc-bitstring-status-list-context';

export function documentLoader(extra) {
  const didKey = driver();
  didKey.use({ multibaseMultikeyHeader: 'z6Mk', fromMultibase: Ed25519Multikey.from });
  didKey.use({ multibaseMultikeyHeader: 'zDna', fromMultibase: EcdsaMultikey.from });
  didKey.use({ multibaseMultikeyHeader: 'z82L', fromMultibase: EcdsaMultikey.from });
  const resolver = new CachedResolver();
  resolver.use(didKey);
  const loader = new JsonLdDocumentLoader();
  for (const map of [credentialsContexts, didContext.contexts, ed25519Context.contexts, dataIntegrityContext.contexts, multikeyContext.contexts, statusContexts]) {
    for (const [url, document] of map) loader.addStatic(url, document);
  }
  for (const [url, document] of Object.entries(extra ?? {})) loader.addStatic(url, document);
  loader.setDidResolver(resolver);
  return loader.build();
}

export async function keyPairFor(keyType) {
  const keyPair = keyType === 'Ed25519' ? await Ed25519Multikey.generate() : await EcdsaMultikey.generate({ curve: keyType });
  const did = `did:key:${keyPair.publicKeyMultibase}`;
  keyPair.controller = did;
  keyPair.id = `${did}#${keyPair.publicKeyMultibase}`;
  return { did, keyPair };
}

export function signingSuite(suite, signer) {
  switch (suite) {
    case 'eddsa-rdfc-2022':
      return new DataIntegrityProof({ signer, cryptosuite: eddsaRdfc2022 });
    case 'eddsa-jcs-2022':
      return new DataIntegrityProof({ signer, cryptosuite: jcsSign() });
    case 'ecdsa-rdfc-2019':
      return new DataIntegrityProof({ signer, cryptosuite: ecdsaRdfc2019 });
    case 'Ed25519Signature2020':
      return new Ed25519Signature2020({ signer });
    default:
      throw new Error(`unknown suite ${suite}`);
  }
}

export const verifyingSuites = () => [
  new DataIntegrityProof({ cryptosuite: eddsaRdfc2022 }),
  new DataIntegrityProof({ cryptosuite: jcsVerify() }),
  new DataIntegrityProof({ cryptosuite: ecdsaRdfc2019 }),
  new Ed25519Signature2020(),
];

