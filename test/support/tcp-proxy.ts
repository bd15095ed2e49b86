import { type Server, type Socket, connect, createServer } from 'node:net';

/**
 * A TCP proxy between a service process and PostgreSQL, so a test can take "the database" away
 * from one service without stopping the machine's PostgreSQL (other suites share it).
 * `stop()` is an outage as the service sees it: the listener closes (new connections are refused)
 * and every open connection is destroyed (queries in flight lose their socket). `start()` listens
 * on the same port again. `freeze()` is a server that stopped answering (a hung host, a dropped
 * route): new connections are accepted and then get no byte back; `thaw()` cuts those and
 * forwards again.
 */
export interface TcpProxy {
  readonly port: number;
  /** Connections accepted since the proxy was created. */
  readonly accepted: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  freeze(): void;
  thaw(): void;
  /** stop() for good (test teardown). */
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  let server: Server | undefined;
  let port = 0;
  let frozen = false;
  /** Connections accepted while frozen: held open, never forwarded. */
  const held = new Set<Socket>();

  const listen = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const s = createServer((client) => {
        accepted++;
        if (frozen) {
          held.add(client);
          client.on('error', () => undefined);
          client.on('close', () => held.delete(client));
          return;
        }
        const upstream = connect(target.port, target.host);
        for (const sock of [client, upstream]) {
          sockets.add(sock);
          // A reset on one side ends the other; errors are the point of the exercise, not failures.
          sock.on('error', () => undefined);
          sock.on('close', () => {
            sockets.delete(sock);
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream);
        upstream.pipe(client);
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as { port: number }).port;
        server = s;
        resolve();
      });
    });

  const stop = async (): Promise<void> => {
    const s = server;
    server = undefined;
    for (const sock of [...sockets, ...held]) sock.destroy();
    sockets.clear();
    held.clear();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };

  await listen();
  return {
    get port() {
      return port;
    },
    get accepted() {
      return accepted;
    },
    stop,
    async start() {
      if (!server) await listen();
    },
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
      for (const sock of held) sock.destroy();
      held.clear();
    },
    close: stop,
  };
}

/** The URL with its host and port replaced by the proxy's. */
export function viaProxy(url: string, proxy: TcpProxy): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(proxy.port);
  return u.toString();
}
