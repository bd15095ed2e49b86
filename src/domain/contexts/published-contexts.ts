import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CREDENTIALS_EXAMPLES_V2_CONTEXT, CREDENTIALS_EXAMPLES_V2_URL } from './examples-v2';

/**
 * JSON-LD contexts read from the published npm packages that ship them (their `contexts/*.jsonld`),
 * so the service and the wider ecosystem sign under byte-for-byte the same documents and nobody
 * maintains a hand copy. The packages are exact-pinned runtime dependencies (package.json), read
 * once at start-up, never fetched.
 */

export const CREDENTIALS_V1_URL = 'https://www.w3.org/2018/credentials/v1';
export const CREDENTIALS_V2_URL = 'https://www.w3.org/ns/credentials/v2';
export const DATA_INTEGRITY_V1_URL = 'https://w3id.org/security/data-integrity/v1';
export const DATA_INTEGRITY_V2_URL = 'https://w3id.org/security/data-integrity/v2';
export const ED25519_2020_V1_URL = 'https://w3id.org/security/suites/ed25519-2020/v1';
export const MULTIKEY_V1_URL = 'https://w3id.org/security/multikey/v1';
export const DID_V1_URL = 'https://www.w3.org/ns/did/v1';
/** Bitstring Status List v1.0 context (VCDM 1.1 credentials; VCDM 2.0's own context already defines the terms). */
export const BITSTRING_STATUS_LIST_V1_URL = 'https://www.w3.org/ns/credentials/status/v1';
/**
 * VCDM 2.0's opt-in `@vocab` for claims no context defines: the final v2 context dropped its own
 * `@vocab`, so without this one a credential with ad-hoc claims fails JSON-LD safe mode everywhere.
 */
export const CREDENTIALS_UNDEFINED_TERMS_V2_URL = 'https://www.w3.org/ns/credentials/undefined-terms/v2';
/** The VCDM 1.1 examples vocabulary: credentials made with other stacks' samples and tutorials use it. */
export const CREDENTIALS_EXAMPLES_V1_URL = 'https://www.w3.org/2018/credentials/examples/v1';
/** ODRL, which the examples context imports by URL. */
export const ODRL_URL = 'https://www.w3.org/ns/odrl.jsonld';

interface PublishedContext {
  readonly url: string;
  readonly packageName: string;
  readonly file: string;
}

export const PUBLISHED_CONTEXT_SOURCES: readonly PublishedContext[] = [
  { url: CREDENTIALS_V1_URL, packageName: '@digitalbazaar/credentials-context', file: 'contexts/v1.jsonld' },
  { url: CREDENTIALS_V2_URL, packageName: '@digitalbazaar/credentials-context', file: 'contexts/v2.jsonld' },
  { url: CREDENTIALS_UNDEFINED_TERMS_V2_URL, packageName: '@digitalbazaar/credentials-context', file: 'contexts/undefined-terms-v2.jsonld' },
  { url: DATA_INTEGRITY_V1_URL, packageName: '@digitalbazaar/data-integrity-context', file: 'contexts/data-integrity-v1.jsonld' },
  { url: DATA_INTEGRITY_V2_URL, packageName: '@digitalbazaar/data-integrity-context', file: 'contexts/data-integrity-v2.jsonld' },
  { url: ED25519_2020_V1_URL, packageName: 'ed25519-signature-2020-context', file: 'contexts/ed25519-signature-2020-v1.jsonld' },
  { url: MULTIKEY_V1_URL, packageName: '@digitalbazaar/multikey-context', file: 'contexts/multikey-v1.jsonld' },
  { url: DID_V1_URL, packageName: 'did-context', file: 'contexts/did-v1.jsonld' },
  {
    url: BITSTRING_STATUS_LIST_V1_URL,
    packageName: '@digitalbazaar/vc-bitstring-status-list-context',
    file: 'contexts/vc-bitstring-status-list-v1.jsonld',
  },
  { url: CREDENTIALS_EXAMPLES_V1_URL, packageName: '@digitalbazaar/credentials-examples-context', file: 'contexts/credentials-examples-v1.jsonld' },
  { url: ODRL_URL, packageName: '@digitalbazaar/odrl-context', file: 'contexts/odrl.jsonld' },
];

/**
 * The root folder of an installed package. Some packages have an `exports` map that hides both
 * their package.json and their .jsonld files from require.resolve, so resolve the entry point and
 * walk up to the package.json that names the package.
 */
export function packageRoot(packageName: string): string {
  let dir = dirname(require.resolve(packageName));
  for (let i = 0; i < 8; i++) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown };
      if (manifest.name === packageName) return dir;
    } catch {
      // no package.json here: keep walking up
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error(`cannot locate the installed package ${packageName}`);
}

function load(source: PublishedContext): unknown {
  return JSON.parse(readFileSync(join(packageRoot(source.packageName), source.file), 'utf8')) as unknown;
}

/**
 * URL -> context document: as the packages ship them, plus the one published context no package
 * ships (examples/v2, committed in examples-v2.ts with its source).
 */
export const PUBLISHED_CONTEXTS: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  ...PUBLISHED_CONTEXT_SOURCES.map((s): [string, unknown] => [s.url, load(s)]),
  [CREDENTIALS_EXAMPLES_V2_URL, structuredClone(CREDENTIALS_EXAMPLES_V2_CONTEXT)],
]);

/** A published context by URL; throws if the URL is not one of the published contexts above. */
export function publishedContext(url: string): unknown {
  if (!PUBLISHED_CONTEXTS.has(url)) throw new Error(`${url} is not a published context`);
  return PUBLISHED_CONTEXTS.get(url);
}
