import { type RequestListener, type Server, createServer } from 'node:http';

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
export function listen(handler: RequestListener, host: string, port: number, configure: (server: Server) => void = () => undefined): Promise<Server> {
  const server = createServer(handler);
  configure(server);
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
