import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDocumentLoader, type DocumentLoader } from '../../../src/domain/contexts';
import { multibaseDecode, splitMulticodecPrefix } from '../../../src/domain/encoding/multibase';
import { createKeySigner } from '../../../src/vc/signers/key-signer';
import type { JsonObject, ProofSigner } from '../../../src/vc/ports';

export const VECTORS = join(__dirname, '..', '..', 'fixtures', 'vectors', 'vc-di-eddsa');

export const vectorText = (...path: string[]): string => readFileSync(join(VECTORS, ...path), 'utf8');
export const vectorJson = (...path: string[]): JsonObject => JSON.parse(vectorText(...path)) as JsonObject;

/** The pinned contexts, which include the W3C examples/v2 context the vectors use (see the fixture's SOURCE.md). */
export const vectorLoader: DocumentLoader = createDocumentLoader();

/** A signer for a vector key pair: `privateKeyMultibase` is ed25519-priv (0x1300) + 32-byte seed. */
export function vectorSigner(keyPair: { publicKeyMultibase: string; privateKeyMultibase: string }): ProofSigner {
  const { code, data } = splitMulticodecPrefix(multibaseDecode(keyPair.privateKeyMultibase));
  if (code !== 0x1300 || data.length !== 32) throw new Error('not an ed25519-priv multikey');
  const fp = keyPair.publicKeyMultibase;
  return createKeySigner({ keyType: 'Ed25519', privateKey: data }, `did:key:${fp}#${fp}`);
}
