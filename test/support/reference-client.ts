/**
 * A REST client written from the service interface reference alone (the interface Credgate's REST
 * layer follows, docs/API.md): the paths, headers, query parameters, bodies, envelopes and statuses it lists, and
 * nothing of Credgate's own (no Idempotency-Key, no holder proofs, no ZKP statement, no extra
 * body members). It deliberately shares no code with the project's transport helpers, so a change
 * there cannot hide a change in what a reference client sees.
 */

export interface RefResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: any;
}

export interface RefRequest {
  /** Headers besides the API key, named as the reference names them (`did`, `publicKey`, ...). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  /** A JSON body. */
  readonly json?: unknown;
  /** multipart/form-data file parts (POST /user/image/createTemplate). */
  readonly files?: Readonly<Record<string, Uint8Array>>;
}

export type RefFamily = 'A' | 'B';

/** §5: Family A sends `X-API-Key`, Family B `x-api-key`. */
const API_KEY_HEADER: Record<RefFamily, string> = { A: 'X-API-Key', B: 'x-api-key' };

export class ReferenceClient {
  /**
   * @param baseUrl `{base_url}` of the reference.
   * @param prefix '' or '/api': the two spellings of Family A paths (§1).
   */
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    private readonly family: RefFamily,
    private readonly prefix = '',
  ) {}

  async call(method: string, path: string, req: RefRequest = {}): Promise<RefResponse> {
    const headers: Record<string, string> = { [API_KEY_HEADER[this.family]]: this.apiKey, ...req.headers };
    let body: string | FormData | undefined;
    if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['Content-Type'] = 'application/json';
    } else if (req.files) {
      const form = new FormData();
      for (const [name, bytes] of Object.entries(req.files)) form.append(name, new Blob([bytes], { type: 'image/jpeg' }), `${name}.jpg`);
      body = form;
    }
    const query = req.query ? `?${new URLSearchParams(req.query).toString()}` : '';
    const res = await fetch(`${this.baseUrl}${this.prefix}${path}${query}`, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: res.status, headers: res.headers, body: parsed };
  }
}

/**
 * §4: a Family A success is `{ success: true, data, message?, status }` with `status` equal to the
 * HTTP status. Returns `data`; throws (failing the test) on anything else.
 */
export function envelopeA(res: RefResponse, status: number): any {
  if (res.status !== status) throw new Error(`expected HTTP ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  const b = res.body as Record<string, unknown>;
  if (b === null || typeof b !== 'object') throw new Error(`expected a JSON envelope, got ${JSON.stringify(res.body)}`);
  if (b['success'] !== true || b['status'] !== status) throw new Error(`not a Family A success envelope: ${JSON.stringify(b)}`);
  if (b['message'] !== undefined && typeof b['message'] !== 'string') throw new Error('message must be a string');
  return b['data'];
}

/** §7.1: a Family B error body is an object with a string `error`. */
export function isFamilyBError(res: RefResponse, status: number): boolean {
  return res.status === status && res.body !== null && typeof res.body === 'object' && typeof res.body.error === 'string';
}
