import { type RequestListener, type Server, createServer } from 'node:http';
import type { HttpLimits } from './config';

/** Why listening failed, in one line an operator can act on. */
export class ListenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ListenError';
  }
}

const REASONS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'address already in use (another process owns the port)',
  EACCES: 'permission denied',
  EADDRNOTAVAIL: 'address not available on this machine',
};

/**
 * Binds the HTTP server and resolves only once it is really listening. Express's `app.listen`
 * hands a bind error to the "listening" callback, so a busy port used to be logged as success;
 * here an error rejects and the caller exits.
 */
export function listen(handler: RequestListener, host: string, port: number, limits?: HttpLimits): Promise<Server> {
  const server = limits ? limitedServer(handler, limits) : createServer(handler);
  return new Promise((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException): void => {
      server.off('listening', onListening);
      const reason = (e.code && REASONS[e.code]) ?? e.message;
      reject(new ListenError(`cannot listen on ${host}:${port}: ${reason}${e.code ? ` (${e.code})` : ''}`));
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve(server);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/**
 * An HTTP server with the edge limits applied. Node's defaults let a client take 60 s to send
 * headers and 300 s to send a body, with no cap on connections. Timeouts are checked every
 * second (Node's default interval is 30 s, which would stretch a short limit).
 */
export function limitedServer(handler: RequestListener, limits: HttpLimits): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      // requestTimeout must not be shorter than headersTimeout.
      requestTimeout: Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs),
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    },
    handler,
  );
  server.maxConnections = limits.maxConnections;
  return server;
}
