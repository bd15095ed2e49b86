import { Oid4vpVerifierService } from '../../../src/oid4vc/verifier/verifier.service';
import type { NewRequest, PresentationResult, RequestRecord, RequestRepository, WebhookStatus } from '../../../src/oid4vc/verifier/request-record';
import type { WebhookSender } from '../../../src/oid4vc/verifier/webhook';
import type { Actor } from '../../../src/domain/tenancy/actor';

/** The verifier's use cases with fakes for its ports (repository, clock, secret box, format, webhook). */
class MemoryRepo implements RequestRepository {
  readonly rows = new Map<string, RequestRecord>();
  readonly secrets = new Map<string, Uint8Array>();
  completions = 0;
  async create(r: NewRequest, sealed: Uint8Array): Promise<RequestRecord> {
    const row: RequestRecord = { ...r, status: 'pending', result: null, respondedAt: null, createdAt: new Date(0), webhookAttempts: 0 };
    this.rows.set(r.id, row);
    this.secrets.set(r.id, sealed);
    return row;
  }
  async find(id: string) {
    return this.rows.get(id) ?? null;
  }
  async findForTenant(tenantId: string, id: string) {
    const r = this.rows.get(id);
    return r && r.tenantId === tenantId ? r : null;
  }
  async sealedSecrets(id: string) {
    return this.secrets.get(id) ?? null;
  }
  async complete(id: string, result: PresentationResult, now: Date): Promise<boolean> {
    // Like the conditional UPDATE: the check and the write happen in one step.
    const r = this.rows.get(id);
    if (!r || r.respondedAt !== null || r.expiresAt <= now) return false;
    this.completions++;
    this.rows.set(id, { ...r, respondedAt: now, status: result.verified ? 'verified' : 'failed', result });
    return true;
  }
  async recordWebhook(id: string, status: WebhookStatus, attempts: number) {
    const r = this.rows.get(id)!;
    this.rows.set(id, { ...r, webhookStatus: status, webhookAttempts: attempts });
  }
}

const actor: Actor = { tenantId: 't-1', tenantSlug: 'rp', apiKeyId: 'k-1', scopes: ['verifier'] };
const query = { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['https://issuer.example/pid'] }, claims: [{ path: ['given_name'] }] }] };
const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
/** An SD-JWT with no disclosures: what the fake format verifier is handed. */
const presentation = `${b64({ alg: 'ES256' })}.${b64({ iss: 'https://issuer.example', vct: 'https://issuer.example/pid' })}.sig~`;

function setup() {
  const repo = new MemoryRepo();
  let now = new Date('2026-11-27T12:00:00Z');
  const delivered: unknown[] = [];
  const webhooks: WebhookSender = { checkUrl: (u) => u, deliver: (_id, _url, _secret, payload) => void delivered.push(payload), drain: async () => undefined };
  const service = new Oid4vpVerifierService({
    repo,
    box: { seal: (p) => new Uint8Array(p), open: (e) => new Uint8Array(e) },
    clock: { now: () => now },
    publicUrl: 'https://verifier.example',
    formats: {
      // A fake of the registry lookup: only dc+sd-jwt, whose check always verifies.
      forDcqlFormat: (format) =>
        format === 'dc+sd-jwt'
          ? {
              id: 'dc+sd-jwt',
              verifyPresentation: async () => ({
                verified: true,
                checked: 'signature, key binding, status and validity',
                problems: [],
                type: 'https://issuer.example/pid',
                issuer: 'https://issuer.example',
                claims: { given_name: 'Erika' },
                disclosed: [['given_name']],
                dcql: { credential_format: 'dc+sd-jwt', vct: 'https://issuer.example/pid', claims: { given_name: 'Erika' }, cryptographic_holder_binding: true },
              }),
            }
          : undefined,
      vpFormatsSupported: () => ({ 'dc+sd-jwt': {} }),
    },
    webhooks,
  });
  return { repo, service, delivered, advance: (s: number) => (now = new Date(now.getTime() + s * 1000)) };
}

async function openRequest(s: ReturnType<typeof setup>, extra: Record<string, unknown> = {}) {
  const created = await s.service.create(actor, { dcqlQuery: query, clientIdPrefix: 'redirect_uri', responseMode: 'direct_post', ...extra });
  const state = s.repo.rows.get(created.id)!.state;
  return { created, body: { vp_token: JSON.stringify({ pid: [presentation] }), state } };
}

describe('the OID4VP verifier service', () => {
  it('takes exactly one of two concurrent responses: state and nonce are consumed once', async () => {
    const s = setup();
    const { created, body } = await openRequest(s);
    const outcomes = await Promise.allSettled([s.service.respond(created.id, body), s.service.respond(created.id, body)]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ error: 'invalid_request' });
    expect(s.repo.completions).toBe(1);
    expect(s.repo.rows.get(created.id)).toMatchObject({ status: 'verified', result: { verified: true, dcqlSatisfied: true } });
  });

  it('refuses a response (and the request object) once the request has expired, storing nothing', async () => {
    const s = setup();
    const { created, body } = await openRequest(s, { expiresInSeconds: 60, clientIdPrefix: 'redirect_uri' });
    s.advance(61);
    await expect(s.service.respond(created.id, body)).rejects.toMatchObject({ error: 'invalid_request', description: expect.stringContaining('expired') });
    await expect(s.service.requestObject(created.id)).rejects.toMatchObject({ error: 'invalid_request' });
    expect(s.repo.rows.get(created.id)).toMatchObject({ status: 'pending', result: null, respondedAt: null });
  });

  it('refuses another state, a query id the request did not ask, and a token over the presentation bound; nothing is stored', async () => {
    const s = setup();
    const { created, body } = await openRequest(s);
    await expect(s.service.respond(created.id, { ...body, state: 'not-the-state' })).rejects.toMatchObject({ error: 'invalid_request' });
    await expect(s.service.respond(created.id, { ...body, vp_token: JSON.stringify({ other: [presentation] }) })).rejects.toMatchObject({ error: 'invalid_request' });
    await expect(s.service.respond(created.id, { ...body, vp_token: JSON.stringify({ pid: Array(17).fill(presentation) }) })).rejects.toMatchObject({ error: 'invalid_request' });
    expect(s.repo.completions).toBe(0);
    // The honest response still gets through afterwards.
    await expect(s.service.respond(created.id, body)).resolves.toEqual({ verified: true });
  });

  it('pushes the result to the webhook after the response, with the request id and status', async () => {
    const s = setup();
    const { created, body } = await openRequest(s, { webhookUrl: 'https://rp.example/hook' });
    expect(created.webhookSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await s.service.respond(created.id, body);
    expect(s.delivered).toEqual([expect.objectContaining({ id: created.id, status: 'verified', result: expect.objectContaining({ verified: true }) })]);
  });

  it('x509 client identifiers need a request-signing key; without one only redirect_uri is offered', async () => {
    const s = setup();
    await expect(s.service.create(actor, { dcqlQuery: query })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(s.repo.rows.size).toBe(0);
  });
});
