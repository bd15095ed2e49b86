export interface HttpResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  readonly json: any;
}

export interface RequestOptions {
  readonly headers?: Record<string, string>;
  /** A JSON body (serialised and sent as application/json). */
  readonly body?: unknown;
  /** A raw body, sent as-is with the given headers. */
  readonly raw?: string | Buffer;
}

export async function request(baseUrl: string, method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Buffer | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(baseUrl + path, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}
