/**
 * The half-peak load driver of `npm run bench` (bench/paced.js, through bench/drive.js's
 * driveService) against a scripted node:http server on loopback: requests are spread evenly over
 * the run rather than sent in bursts, latency runs from the scheduled send (a stalled answer delays
 * the requests queued behind it, and that shows), and failures are counted the way the bench counts
 * them (non-2xx, GraphQL 200-with-errors, timeouts). No database, no build.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface Req {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
}
interface PacedResult {
  latencies: number[];
  failures: number;
  sent: number;
  elapsedMs: number;
  sendLagMs: { p99: number; max: number };
}
interface Paced {
  stopPacedChild(): Promise<void>;
  pacedRun(o: { baseUrl: string; rate: number; durationMs: number; next(): Req; failed?(status: number, body: string): boolean; maxSockets?: number; timeoutMs?: number }): Promise<PacedResult>;
}
interface Drive {
  driveService(
    server: { pid: number; baseUrl: string },
    req: Req | { pick(): Req & { apiKey: string } },
    apiKey: string,
    o: { rate: number; durationMs: number; graphql?: boolean },
  ): Promise<{ count: number; throughput: number; p50: number; p99: number; failures: number; cpuMsPerOp: number }>;
}
// Plain CommonJS benchmark modules (run by node without a build step), typed here.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pacedRun, stopPacedChild } = require('../../bench/paced.js') as Paced;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { driveService } = require('../../bench/drive.js') as Drive;

interface Seen {
  at: number;
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A loopback server that records every request and answers it with `answer` (which may hold it). */
async function scripted(answer: (seen: Seen, index: number, res: http.ServerResponse) => void) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const at = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s = { at, method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(s);
      answer(s, seen.length - 1, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    seen,
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const ok = (_: Seen, __: number, res: http.ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');

describe('bench/paced.js: open-loop, evenly paced load', () => {
  test('spreads the requests over the whole run instead of sending them in a burst', async () => {
    const srv = await scripted(ok);
    try {
      const r = await pacedRun({ baseUrl: srv.baseUrl, rate: 200, durationMs: 600, next: () => ({ method: 'GET', path: '/x' }) });
      expect(r.sent).toBe(120);
      expect(r.failures).toBe(0);
      expect(r.latencies).toHaveLength(120);
      const at = srv.seen.map((s) => s.at).sort((a, b) => a - b);
      // 119 gaps of 5 ms: the arrivals span ~595 ms (a burst, as autocannon's overallRate sends, takes a few ms).
      expect(at.at(-1)! - at[0]!).toBeGreaterThan(500);
      // No 100 ms window holds half the run: a burst puts all 120 in one. Evenly paced, a window
      // holds 20; a paced driver that the machine stalls sends what fell due at once when it
      // resumes (open loop, as it must), so under a loaded CI a window may hold a few dozen.
      let most = 0;
      for (let i = 0, j = 0; i < at.length; i++) {
        while (at[i]! - at[j]! >= 100) j++;
        most = Math.max(most, i - j + 1);
      }
      expect(most).toBeLessThan(60);
    } finally {
      await srv.close();
    }
  });

  test('latency runs from the scheduled send: requests queued behind a stalled answer count their wait', async () => {
    // One connection; the first answer is held 200 ms. Requests due at 10, 20, ... ms queue behind it.
    const srv = await scripted((s, i, res) => (i === 0 ? setTimeout(() => ok(s, i, res), 200) : ok(s, i, res)));
    try {
      const r = await pacedRun({ baseUrl: srv.baseUrl, rate: 100, durationMs: 400, maxSockets: 1, next: () => ({ method: 'GET', path: '/x' }) });
      expect(r.failures).toBe(0);
      expect(r.latencies).toHaveLength(40);
      // Measured from the write (as autocannon does) only the held request would exceed 100 ms;
      // from the schedule, those due in the first ~100 ms waited for it too.
      expect(r.latencies.filter((ms) => ms >= 100).length).toBeGreaterThanOrEqual(8);
      expect(Math.max(...r.latencies)).toBeGreaterThanOrEqual(190);
    } finally {
      await srv.close();
    }
  });

  test('a late driver is charged too: requests sent late count from when they were due', async () => {
    const srv = await scripted(ok);
    try {
      let n = 0;
      const next = () => {
        // The 6th request (due at 50 ms) blocks this process for 150 ms: those due meanwhile go out late.
        if (n++ === 5) for (const until = performance.now() + 150; performance.now() < until; );
        return { method: 'GET', path: '/x' };
      };
      const r = await pacedRun({ baseUrl: srv.baseUrl, rate: 100, durationMs: 400, next });
      expect(r.latencies).toHaveLength(40);
      expect(r.sendLagMs.max).toBeGreaterThanOrEqual(140);
      // Due at 60..190 ms, written at ~200 ms: about 14 latencies above 50 ms from the schedule.
      expect(r.latencies.filter((ms) => ms >= 50).length).toBeGreaterThanOrEqual(8);
    } finally {
      await srv.close();
    }
  });

  test('an answer that never comes is a failure after the timeout, and the run still ends', async () => {
    const srv = await scripted((s, i, res) => {
      if (s.body !== 'hang') ok(s, i, res);
    });
    try {
      let n = 0;
      const r = await pacedRun({ baseUrl: srv.baseUrl, rate: 50, durationMs: 200, timeoutMs: 300, next: () => ({ method: 'POST', path: '/x', body: n++ === 2 ? 'hang' : 'fine' }) });
      expect(r.sent).toBe(10);
      expect(r.failures).toBe(1);
      expect(r.latencies).toHaveLength(9);
    } finally {
      await srv.close();
    }
  });
});

describe('bench/drive.js driveService at a rate (through the driver child process)', () => {
  afterAll(() => stopPacedChild());

  test('sends the request shapes of the bench and counts non-2xx and GraphQL 200-with-errors as failures', async () => {
    const srv = await scripted((s, i, res) => {
      if (s.body.includes('boom')) res.writeHead(500).end('{}');
      else if (s.body.includes('bad')) res.writeHead(200, { 'content-type': 'application/json' }).end('{"errors":[{"message":"no"}],"data":null}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"ok":true}}');
    });
    try {
      const server = { pid: process.pid, baseUrl: srv.baseUrl };
      const picks = [
        { method: 'POST', path: '/graphql', body: '{"q":"good"}', apiKey: 'key-a' },
        { method: 'POST', path: '/graphql', body: '{"q":"bad"}', apiKey: 'key-b' },
        { method: 'POST', path: '/graphql', body: '{"q":"boom"}', apiKey: 'key-c' },
        { method: 'POST', path: '/graphql', body: '{"q":"good"}', apiKey: 'key-d', headers: { 'x-extra': '1' } },
      ];
      let next = 0;
      const r = await driveService(server, { pick: () => picks[next++ % picks.length]! }, 'main-key', { rate: 100, durationMs: 400, graphql: true });
      expect(r.count).toBe(20);
      expect(r.failures).toBe(20);
      expect(r.p99).toBeGreaterThan(0);
      expect(Number.isFinite(r.cpuMsPerOp)).toBe(true);
      // Every pick arrives as it was picked (key, body, headers), each as often as the others (the
      // picks go round-robin over the warm-up and the run). Arrival order is not compared: over
      // several keep-alive connections the fourth request once arrived after the fifth (a
      // fresh-clone CI run).
      expect(srv.seen.length).toBeGreaterThanOrEqual(20);
      expect(srv.seen.length % picks.length).toBe(0);
      for (const p of picks) {
        const got = srv.seen.filter((s) => s.headers['x-api-key'] === p.apiKey);
        expect(got).toHaveLength(srv.seen.length / picks.length);
        for (const s of got) {
          expect(s.body).toBe(p.body);
          expect(s.headers['x-extra']).toBe(p.headers?.['x-extra']);
          expect(s.method).toBe('POST');
          expect(s.url).toBe('/graphql');
          expect(s.headers['content-type']).toBe('application/json');
        }
      }

      // A fixed REST request: the caller's key and headers; a 200 with "errors" is not a GraphQL failure there.
      srv.seen.length = 0;
      const rest = await driveService(server, { method: 'POST', path: '/credentials/verify', body: '{"q":"bad"}', headers: { 'x-extra': '2' } }, 'main-key', { rate: 100, durationMs: 200 });
      expect(rest.count).toBe(20);
      expect(rest.failures).toBe(0);
      expect(srv.seen[0]?.headers['x-api-key']).toBe('main-key');
      expect(srv.seen[0]?.headers['x-extra']).toBe('2');
      expect(srv.seen[0]?.url).toBe('/credentials/verify');
    } finally {
      await srv.close();
    }
  });
});
