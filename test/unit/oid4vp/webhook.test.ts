import { createHmac } from 'node:crypto';
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpWebhookSender, type WebhookPolicy } from '../../../src/oid4vc/verifier/webhook';
import type { WebhookStatus } from '../../../src/oid4vc/verifier/request-record';

/** A receiver answering a fixed status; it records each delivery's body and signature. */
async function receiver(status: number): Promise<{ url: string; seen: { body: string; signature: string }[]; server: Server }> {
  const seen: { body: string; signature: string }[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ body: Buffer.concat(chunks).toString('utf8'), signature: String(req.headers['x-credgate-signature']) });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, seen, server };
}

const policy: WebhookPolicy = { allowPrivate: true, timeoutMs: 2000, attempts: 3, backoffMs: 100 };

function sender(p: WebhookPolicy = policy) {
  const records: [string, WebhookStatus, number][] = [];
  const sleeps: number[] = [];
  const s = new HttpWebhookSender(p, async (id, status, attempts) => void records.push([id, status, attempts]), undefined, async (ms) => void sleeps.push(ms));
  return { s, records, sleeps };
}

describe('the OID4VP result webhook', () => {
  it('delivers once on 2xx, signed with HMAC-SHA256 under the request secret', async () => {
    const r = await receiver(204);
    try {
      const { s, records } = sender();
      s.deliver('req-1', r.url, 'secret', { id: 'req-1', status: 'verified' });
      await s.drain();
      expect(records).toEqual([['req-1', 'delivered', 1]]);
      expect(r.seen).toHaveLength(1);
      expect(r.seen[0]!.signature).toBe(`sha256=${createHmac('sha256', 'secret').update(r.seen[0]!.body).digest('hex')}`);
    } finally {
      r.server.close();
    }
  });

  it('retries a failing receiver a bounded number of times with growing backoff, then gives up', async () => {
    const r = await receiver(503);
    try {
      const { s, records, sleeps } = sender();
      s.deliver('req-2', r.url, 'secret', {});
      await s.drain();
      expect(r.seen).toHaveLength(3);
      expect(sleeps).toEqual([100, 200]);
      expect(records).toEqual([['req-2', 'failed', 3]]);
    } finally {
      r.server.close();
    }
  });

  it('does not retry a 4xx that retrying cannot change', async () => {
    const r = await receiver(404);
    try {
      const { s, records } = sender();
      s.deliver('req-3', r.url, 'secret', {});
      await s.drain();
      expect(r.seen).toHaveLength(1);
      expect(records).toEqual([['req-3', 'failed', 1]]);
    } finally {
      r.server.close();
    }
  });

  it('never reaches a private address unless the deployment allows it: refused at creation, and at connection time', async () => {
    const r = await receiver(204);
    try {
      const { s, records } = sender({ ...policy, allowPrivate: false });
      for (const url of ['https://127.0.0.1/hook', 'https://[::1]/hook', 'https://10.0.0.1/x', 'http://example.com/x', 'ftp://example.com/x', 'https://user:pw@example.com/x', 'not a url']) {
        expect(() => s.checkUrl(url)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
      }
      expect(s.checkUrl('https://rp.example.com/hook')).toBe('https://rp.example.com/hook');
      // A name that resolves to loopback is refused on the address actually connected to.
      s.deliver('req-4', r.url.replace('127.0.0.1', 'localhost'), 'secret', {});
      await s.drain();
      expect(r.seen).toHaveLength(0);
      expect(records.at(-1)).toEqual(['req-4', 'failed', 3]);
    } finally {
      r.server.close();
    }
  });
});
