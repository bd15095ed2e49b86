/**
 * Minimal typing of the parts of `jsonld` (v9, CommonJS, untyped) that Credgate uses.
 * Option names verified against node_modules/jsonld/lib/jsonld.js.
 */
declare module 'jsonld' {
  export interface RemoteDocument {
    contextUrl: string | null;
    documentUrl: string;
    document: unknown;
    /** `'static'` lets jsonld cache the resolved context process-wide; Credgate never sets it. */
    tag?: string;
  }

  export type DocumentLoader = (url: string, options?: unknown) => Promise<RemoteDocument>;

  export interface CanonizeOptions {
    /** Base IRI for relative references; jsonld 9 actually defaults it to '' (its TSDoc says null). */
    base?: string | null;
    format?: 'application/n-quads';
    documentLoader?: DocumentLoader;
    /** Fail on anything that would otherwise be silently dropped from the dataset. */
    safe?: boolean;
    skipExpansion?: boolean;
    rdfDirection?: null | 'i18n-datatype';
    canonizeOptions?: {
      algorithm?: 'RDFC-1.0' | 'URDNA2015';
      messageDigestAlgorithm?: 'sha256';
      maxWorkFactor?: number;
    };
  }

  export function canonize(input: unknown, options?: CanonizeOptions): Promise<string>;
}
