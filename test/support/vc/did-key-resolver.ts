import { didKeyFingerprint, parseDidKey } from '../../../src/domain/dids/did-key';
import type { DidDocument, VerificationMethod } from '../../../src/domain/dids/did-document.types';
import { x25519PublicKeyFromEd25519 } from '../../../src/domain/keys/x25519';
import { AppError } from '../../../src/errors';
import type { DereferencedMethod, DidResolver, ResolutionResult } from '../../../src/vc/ports';

/**
 * did:key documents in the Multikey form of did:key v0.7 (what Digital Bazaar's did-method-key
 * produces for Multikey): one Multikey method named by its fingerprint, listed under every
 * verification relationship; Ed25519 keys add a derived X25519 keyAgreement Multikey.
 */
export function multikeyDidKeyDocument(did: string): DidDocument {
  const parsed = parseDidKey(did);
  const id = `did:key:${parsed.fingerprint}`;
  const method: VerificationMethod = { id: `${id}#${parsed.fingerprint}`, type: 'Multikey', controller: id, publicKeyMultibase: parsed.fingerprint };
  const methods = [method];
  let keyAgreement = method.id;
  if (parsed.type === 'Ed25519') {
    const x = didKeyFingerprint('X25519', x25519PublicKeyFromEd25519(parsed.publicKey));
    methods.push({ id: `${id}#${x}`, type: 'Multikey', controller: id, publicKeyMultibase: x });
    keyAgreement = `${id}#${x}`;
  }
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
    id,
    verificationMethod: methods,
    authentication: [method.id],
    assertionMethod: [method.id],
    capabilityInvocation: [method.id],
    capabilityDelegation: [method.id],
    keyAgreement: [keyAgreement],
  };
}

/**
 * A real resolver over real documents for the proof tests: did:key locally, plus any documents a
 * test registers (e.g. a controller document that lists a method only under authentication, or a
 * key of another type). Unknown DIDs answer DID_NOT_FOUND as the production resolver does.
 */
export function createTestDidResolver(documents: readonly DidDocument[] = []): DidResolver {
  const registered = new Map(documents.map((d) => [d.id, d]));
  const resolve = async (did: string): Promise<ResolutionResult> => {
    const doc = registered.get(did);
    if (doc) return { didDocument: doc, method: 'test' };
    if (did.startsWith('did:key:')) return { didDocument: multikeyDidKeyDocument(did), method: 'key' };
    throw new AppError('DID_NOT_FOUND', `${did} was not found`);
  };
  return {
    resolve,
    async dereferenceMethod(didUrl: string): Promise<DereferencedMethod> {
      const hash = didUrl.indexOf('#');
      const did = hash < 0 ? didUrl : didUrl.slice(0, hash);
      const { didDocument } = await resolve(did);
      const wanted = hash < 0 ? undefined : didUrl;
      const method = (didDocument.verificationMethod ?? []).find((m) => (wanted === undefined ? did.startsWith('did:key:') : m.id === wanted));
      if (!method) throw new AppError('NOT_FOUND', `${didUrl} names no verification method`);
      return { method, controllerDocument: didDocument };
    },
  };
}
