import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addProof } from '../../../src/vc/proofs';
import { DEFAULT_JSONLD_BUDGET, registerCanonicalizationExecutor } from '../../../src/domain/contexts';
import { createKeySigner, didKeyIdentity, generateSigningKeyPair } from '../../../src/vc/signers/key-signer';
import type { JsonObject, ProofSigner } from '../../../src/vc/ports';
import { buildStatusListCredential, encodeStatusList, statusListEntry } from '../../../src/vc/status';
import type { FixtureServer, SelfSignedCert } from '../fixture-https';

/**
 * What an attacker holding any verifier key can send: credentials and status lists signed by a
 * did:key of their own (eddsa-jcs-2022, no JSON-LD needed), served from a local HTTPS server the
 * service is configured to trust (CREDGATE_FETCH_CA_FILE, private addresses allowed).
 */
export interface SelfIssuer {
  readonly did: string;
  readonly signer: ProofSigner;
}

export function selfIssuer(): SelfIssuer {
  const pair = generateSigningKeyPair('Ed25519');
  const { did, verificationMethod } = didKeyIdentity('Ed25519', pair.publicKey);
  return { did, signer: createKeySigner(pair, verificationMethod) };
}

export const signJcs = (doc: JsonObject, by: SelfIssuer): Promise<JsonObject> => addProof(doc, by.signer, { suite: 'eddsa-jcs-2022', proofPurpose: 'assertionMethod' });

/**
 * Signs a document larger than the service's structural budget, as an attacker's own signer
 * would (ours refuses to): a registered executor with a huge budget lifts it for this call only.
 * Its canonize is never called, since JCS does not canonicalise JSON-LD.
 */
async function signJcsUnbounded(doc: JsonObject, by: SelfIssuer): Promise<JsonObject> {
  const huge = { ...DEFAULT_JSONLD_BUDGET, maxObjects: 1e7, maxValues: 1e8, maxChars: 1e9 };
  const unregister = registerCanonicalizationExecutor({ budget: huge, canonize: () => Promise.reject(new Error('RDFC is not used by eddsa-jcs-2022')) });
  try {
    return await signJcs(doc, by);
  } finally {
    unregister();
  }
}

/** A VCDM 2.0 credential of `by` about a fixed subject, with `extra` members, signed (JCS, whatever its size). */
export function selfIssuedCredential(by: SelfIssuer, extra: JsonObject): Promise<JsonObject> {
  return signJcsUnbounded({ '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiableCredential'], issuer: by.did, validFrom: '2024-01-01T00:00:00Z', credentialSubject: { id: 'did:example:holder' }, ...extra }, by);
}

/** An all-clear revocation list of `by` (16 KiB, the minimum) served at `urlPath`; returns its URL. */
export async function publishStatusList(server: FixtureServer, urlPath: string, by: SelfIssuer, bits: Uint8Array = new Uint8Array(16 * 1024)): Promise<string> {
  const url = `${server.origin}${urlPath}`;
  const unsigned = { ...buildStatusListCredential({ id: url, issuer: by.did, statusPurpose: 'revocation', bits: new Uint8Array(16 * 1024), version: '2.0', validFrom: '2024-01-01T00:00:00Z' }) } as JsonObject;
  unsigned.credentialSubject = { ...(unsigned.credentialSubject as JsonObject), encodedList: encodeStatusList(bits) };
  server.route(urlPath, { contentType: 'application/vc', body: JSON.stringify(await signJcs(unsigned, by)) });
  return url;
}

export const revocationEntry = (url: string, index = 7): JsonObject => statusListEntry({ listCredentialUrl: url, index, statusPurpose: 'revocation' });

/** The fixture certificate as a file, as CREDGATE_FETCH_CA_FILE wants it; `remove` deletes it. */
export function caFile(tls: SelfSignedCert): { readonly file: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'credgate-ca-'));
  const file = path.join(dir, 'ca.pem');
  writeFileSync(file, tls.cert);
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Requests the fixture server received under `prefix`. */
export function hitsUnder(server: FixtureServer, prefix: string): number {
  let n = 0;
  for (const [p, c] of server.hits) if (p.startsWith(prefix)) n += c;
  return n;
}
