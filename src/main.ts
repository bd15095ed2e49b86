import 'reflect-metadata';
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import { createApp } from './app';
import { ConfigError, parseConfig } from './config';
import { MasterKeyMismatchError } from './kms/master-key-check';
import { ListenError, listen } from './listen';
import { createLogger } from './logging/logger';

async function main(): Promise<void> {
  let config;
  try {
    config = parseConfig(process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`credgate: invalid configuration: ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  // Under `credgate start --workers N` each line names its worker (src/cli/cluster-primary.ts).
  const base = createLogger(config.logLevel);
  const logger = cluster.isWorker && cluster.worker ? base.child({ worker: cluster.worker.id }) : base;
  let app;
  try {
    app = await createApp({ config, logger });
  } catch (e) {
    if (e instanceof MasterKeyMismatchError) {
      process.stderr.write(`credgate: refusing to start: ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  let server: Server;
  try {
    server = await listen(app.http, config.host, config.port, config.http);
  } catch (e) {
    // Release the database (and its folder lock) before reporting; the reason is one line.
    await app.close().catch(() => undefined);
    if (e instanceof ListenError) {
      process.stderr.write(`credgate: ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  logger.info({ url: `http://${config.host}:${config.port}`, database: app.db.kind, graphql: '/graphql' }, 'credgate listening');
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // Stop accepting connections first; requests in flight finish (each waits for its issuance
    // batch to commit). Then app.close() commits whatever is still queued, waits for batches in
    // flight and their signed heads, and only then closes the database.
    server.close(() => {
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
    // Idle keep-alive sockets would hold close() open; in-flight requests get a grace period.
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 5000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((e: unknown) => {
  process.stderr.write(`credgate: failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
