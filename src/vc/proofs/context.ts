import { createDocumentLoader, type DocumentLoader } from '../../domain/contexts';

/**
 * What a proof operation may be given beyond the shared contract (src/vc/ports.ts). Production
 * callers pass nothing: the loader serves only the pinned contexts and the clock is the system's.
 * Tests pass a loader with extra contexts (e.g. a published vector's example context) and a clock.
 */
export interface ProofEnvironment {
  readonly documentLoader?: DocumentLoader;
  readonly now?: () => Date;
}

let pinnedLoader: DocumentLoader | undefined;

/** The pinned-contexts loader, made once (it is stateless). */
export function loaderOf(env: ProofEnvironment): DocumentLoader {
  if (env.documentLoader) return env.documentLoader;
  pinnedLoader ??= createDocumentLoader();
  return pinnedLoader;
}

export function nowOf(env: ProofEnvironment): Date {
  return env.now ? env.now() : new Date();
}
