import { request } from './http';

/**
 * One Family B issuance over REST (POST /credentials) or GraphQL (issueTemplateCredential) by raw
 * HTTP, normalised so fault suites compare answers across transports and instances: the status
 * (GraphQL: the error's `extensions.status`, 200 on success), the code, Retry-After, the issued
 * id and whether it was an Idempotency-Key replay.
 */
export interface IssueOutcome {
  readonly transport: 'REST' | 'GraphQL';
  readonly status: number;
  readonly code: string | undefined;
  readonly retryAfter: number | undefined;
  readonly id: string | undefined;
  readonly replayed: boolean;
  readonly text: string;
}

const ISSUE = 'mutation IssueTemplateCredential($input: IssueTemplateCredentialInput!) { issueTemplateCredential(input: $input) }';

export async function issueOutcome(baseUrl: string, transport: 'REST' | 'GraphQL', apiKey: string, body: Record<string, unknown>, idempotencyKey?: string): Promise<IssueOutcome> {
  const headers = { 'x-api-key': apiKey, ...(idempotencyKey !== undefined ? { 'Idempotency-Key': idempotencyKey } : {}) };
  const replayed = (h: Headers) => h.get('idempotent-replayed') === 'true';
  if (transport === 'REST') {
    const res = await request(baseUrl, 'POST', '/credentials', { headers, body });
    const retry = res.headers.get('retry-after');
    return { transport, status: res.status, code: res.json?.code, retryAfter: retry === null ? undefined : Number(retry), id: res.status === 201 ? res.json.id : undefined, replayed: replayed(res.headers), text: res.text };
  }
  const res = await request(baseUrl, 'POST', '/graphql', { headers, body: { query: ISSUE, variables: { input: body } } });
  const error = res.json?.errors?.[0];
  const retry = error?.extensions?.retryAfter ?? res.headers.get('retry-after') ?? undefined;
  return {
    transport,
    status: error ? (error.extensions?.status ?? res.status) : res.status,
    code: error?.extensions?.code,
    retryAfter: retry === undefined ? undefined : Number(retry),
    id: res.json?.data?.issueTemplateCredential?.id,
    replayed: replayed(res.headers),
    text: res.text,
  };
}
