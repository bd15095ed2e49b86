import { AppError } from '../../../src/errors';
import { didKeyDocument } from '../../../src/domain/dids/did-key';
import type { DidDocument } from '../../../src/domain/dids/did-document.types';
import type { DereferencedMethod, DidResolver, ResolutionResult } from '../../../src/vc/ports';

/**
 * A DidResolver for tests of the JWT module: did:key documents expanded by the service's own
 * did:key code (real documents, nothing canned), plus any extra documents a test publishes (e.g. a
 * did:web whose document lists someone else's key). The production resolver lives in src/vc/resolver.
 */
export function createTestDidResolver(extra: Readonly<Record<string, DidDocument>> = {}): DidResolver {
  const resolve = async (did: string): Promise<ResolutionResult> => {
    const published = extra[did];
    if (published) return { didDocument: published, method: 'test' };
    if (!did.startsWith('did:key:')) throw new AppError('UNSUPPORTED_DID_METHOD', `no resolver for ${did.split(':').slice(0, 2).join(':')}`);
    return { didDocument: didKeyDocument(did), method: 'key' };
  };
  return {
    resolve,
    async dereferenceMethod(didUrl: string): Promise<DereferencedMethod> {
      const [did = '', fragment] = didUrl.split('#');
      const { didDocument } = await resolve(did);
      const methods = didDocument.verificationMethod ?? [];
      const id = fragment === undefined ? undefined : `${did}#${fragment}`;
      // A did:key's one signing method is implied when the URL has no fragment.
      const method = id === undefined ? (did.startsWith('did:key:') ? methods[0] : undefined) : methods.find((m) => m.id === id);
      if (!method) throw new AppError('DID_NOT_FOUND', `${didUrl} names no verification method`);
      return { method, controllerDocument: didDocument };
    },
  };
}
