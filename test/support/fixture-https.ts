import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A real local HTTP(S) server for the fetch tests (did:web, status lists, Universal Resolver):
 * routes answer fixed bodies, can hang (timeouts), and every request is counted per path.
 * The TLS certificate is made at test time with the openssl CLI (self-signed, CN/SAN localhost
 * and 127.0.0.1), and the tests trust it through the fetch policy's `ca`, as an operator would.
 */
export interface Route {
  readonly status?: number;
  readonly contentType?: string;
  readonly body?: string | Buffer;
  /** Never answer (the client's timeout must end it). */
  readonly hang?: boolean;
  /** Send the body without Content-Length (chunked), so only the streamed-size check can stop it. */
  readonly chunked?: boolean;
  readonly headers?: Record<string, string>;
}

export interface FixtureServer {
  readonly port: number;
  readonly origin: string;
  /** Requests seen per path (decoded as received). */
  readonly hits: Map<string, number>;
  route(path: string, route: Route): void;
  close(): Promise<void>;
}

export interface SelfSignedCert {
  readonly key: string;
  readonly cert: string;
}

export function makeSelfSignedCert(): SelfSignedCert {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'credgate-tls-'));
  try {
    const keyFile = path.join(dir, 'key.pem');
    const certFile = path.join(dir, 'cert.pem');
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=localhost',
      '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-addext', 'basicConstraints=critical,CA:TRUE',
    ], { stdio: 'ignore' });
    return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startFixtureServer(tls?: SelfSignedCert): Promise<FixtureServer> {
  const routes = new Map<string, Route>();
  const hits = new Map<string, number>();
  const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const p = (req.url ?? '/').split('?')[0]!;
    hits.set(p, (hits.get(p) ?? 0) + 1);
    const route = routes.get(p);
    if (!route) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"notFound"}');
      return;
    }
    if (route.hang) return;
    const body = route.body ?? '';
    res.statusCode = route.status ?? 200;
    res.setHeader('content-type', route.contentType ?? 'application/json');
    for (const [k, v] of Object.entries(route.headers ?? {})) res.setHeader(k, v);
    if (route.chunked) {
      const buf = Buffer.from(body);
      for (let i = 0; i < buf.length; i += 1024) res.write(buf.subarray(i, i + 1024));
      res.end();
      return;
    }
    res.setHeader('content-length', Buffer.byteLength(body));
    res.end(body);
  };
  const server = tls ? https.createServer({ key: tls.key, cert: tls.cert }, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    hits,
    route: (p, r) => void routes.set(p, r),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
