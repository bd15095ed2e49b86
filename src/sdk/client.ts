import { type DocumentNode, print } from 'graphql';
import { type Sdk, getSdk } from './generated';

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

export interface CredgateClientOptions {
  /** The GraphQL endpoint, e.g. http://127.0.0.1:4000/graphql. */
  readonly url: string;
  readonly apiKey?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly fetch?: typeof fetch;
}

interface GraphQLResponse {
  data?: unknown;
  errors?: CredgateErrorItem[];
}

/** A typed Credgate client: one method per operation in src/sdk/operations. */
export function createCredgateClient(options: CredgateClientOptions): Sdk {
  const doFetch = options.fetch ?? fetch;
  const printed = new WeakMap<DocumentNode, string>();
  const text = (doc: DocumentNode): string => {
    let q = printed.get(doc);
    if (q === undefined) printed.set(doc, (q = print(doc)));
    return q;
  };
  return getSdk(async <R, V>(doc: DocumentNode, variables?: V): Promise<R> => {
    const res = await doFetch(options.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}),
        ...options.headers,
      },
      body: JSON.stringify({ query: text(doc), variables }),
    });
    let body: GraphQLResponse;
    try {
      body = (await res.json()) as GraphQLResponse;
    } catch {
      throw new CredgateGraphQLError([{ message: `non-JSON response (HTTP ${res.status})` }], res.status);
    }
    if (body.errors && body.errors.length > 0) throw new CredgateGraphQLError(body.errors, res.status);
    return body.data as R;
  });
}
