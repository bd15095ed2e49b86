import { type DocumentNode, print } from 'graphql';
import { type Sdk, getSdk } from './generated';
import { CredgateUpload } from './upload';

/** One error of a GraphQL response, as Credgate formats it. */
export interface CredgateErrorItem {
  readonly message: string;
  readonly path?: readonly (string | number)[];
  readonly extensions?: { readonly code?: string; readonly status?: number; readonly details?: unknown };
}

/** Thrown by SDK calls when the response carries errors; `code` is the first error's code. */
export class CredgateGraphQLError extends Error {
  readonly code: string | undefined;
  constructor(
    readonly errors: readonly CredgateErrorItem[],
    readonly httpStatus: number,
  ) {
    super(errors.map((e) => e.message).join('; '));
    this.name = 'CredgateGraphQLError';
    this.code = errors[0]?.extensions?.code;
  }
}

export { CredgateUpload };

/** Replaces uploads by null and lists their variable paths (GraphQL multipart request spec). */
function extractUploads(value: unknown, path: string, found: [string, CredgateUpload][]): unknown {
  if (value instanceof CredgateUpload) {
    found.push([path, value]);
    return null;
  }
  if (Array.isArray(value)) return value.map((v, i) => extractUploads(v, `${path}.${i}`, found));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, extractUploads(v, `${path}.${k}`, found)]));
  }
  return value;
}

export interface CredgateClientOptions {
  /** The GraphQL endpoint, e.g. http://127.0.0.1:4000/graphql. */
  readonly url: string;
  readonly apiKey?: string;
  /**
   * An OAuth2 access token (POST /oauth/token), sent as `Authorization: Bearer`. A string, or a
   * function asked before every request (so a caller can renew the token when it expires).
   */
  readonly accessToken?: string | (() => string | Promise<string>);
  readonly headers?: Readonly<Record<string, string>>;
  readonly fetch?: typeof fetch;
}

interface GraphQLResponse {
  data?: unknown;
  errors?: CredgateErrorItem[];
}

/**
 * The client's methods: one per operation in src/sdk/operations, named in camelCase
 * (`createDid`, `issueTemplateCredential`) as JavaScript APIs are, while the GraphQL operation
 * names stay PascalCase as GraphQL documents name them.
 */
export type CredgateClient = { [K in keyof Sdk as Uncapitalize<K & string>]: Sdk[K] };

function camelCaseMethods(sdk: Sdk): CredgateClient {
  const entries = Object.entries(sdk).map(([name, method]) => [name.charAt(0).toLowerCase() + name.slice(1), method]);
  return Object.fromEntries(entries) as CredgateClient;
}

/** A typed Credgate client: one method per operation in src/sdk/operations. */
export function createCredgateClient(options: CredgateClientOptions): CredgateClient {
  const doFetch = options.fetch ?? fetch;
  const printed = new WeakMap<DocumentNode, string>();
  const text = (doc: DocumentNode): string => {
    let q = printed.get(doc);
    if (q === undefined) printed.set(doc, (q = print(doc)));
    return q;
  };
  return camelCaseMethods(getSdk(async <R, V>(doc: DocumentNode, variables?: V): Promise<R> => {
    const token = typeof options.accessToken === 'function' ? await options.accessToken() : options.accessToken;
    const auth = {
      accept: 'application/json',
      ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...options.headers,
    };
    const uploads: [string, CredgateUpload][] = [];
    const vars = extractUploads(variables ?? {}, 'variables', uploads);
    let init: RequestInit;
    if (uploads.length === 0) {
      init = { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ query: text(doc), variables }) };
    } else {
      const form = new FormData();
      form.append('operations', JSON.stringify({ query: text(doc), variables: vars }));
      form.append('map', JSON.stringify(Object.fromEntries(uploads.map(([path], i) => [String(i), [path]]))));
      uploads.forEach(([, u], i) => form.append(String(i), new Blob([u.data], { type: u.type }), u.filename));
      // Apollo's CSRF prevention requires a preflight-forcing header on multipart requests.
      init = { method: 'POST', headers: { ...auth, 'apollo-require-preflight': 'true' }, body: form };
    }
    const res = await doFetch(options.url, init);
    let body: GraphQLResponse;
    try {
      body = (await res.json()) as GraphQLResponse;
    } catch {
      throw new CredgateGraphQLError([{ message: `non-JSON response (HTTP ${res.status})` }], res.status);
    }
    if (body.errors && body.errors.length > 0) throw new CredgateGraphQLError(body.errors, res.status);
    return body.data as R;
  }));
}
