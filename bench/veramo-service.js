'use strict';
/**
 * The Veramo *service* anchor of `npm run bench` (issue 19): what a team would deploy if it built
 * a credential service on Veramo 7 instead of Credgate, started by the bench as a process of its
 * own and driven over HTTP with the same autocannon settings as Credgate.
 *
 * - One Veramo 7 agent, with @veramo/data-store (TypeORM) on PostgreSQL: the database named by
 *   VERAMO_DATABASE_URL (the bench creates it on the same server as Credgate's and drops it after),
 *   migrated by data-store's own migrations. Keys, DIDs and issued credentials live there; private
 *   keys are encrypted at rest with SecretBox (@veramo/kms-local) under VERAMO_SECRET_KEY.
 * - HTTP: Express 4, the one nested under @veramo/remote-server (our own Express is 5, which the
 *   remote-server's routers do not support). RequestWithAgentRouter from @veramo/remote-server
 *   attaches the agent to each request and AgentRouter exposes the three agent methods at
 *   /agent/<method> (Veramo's remote API). The bench drives two routes of ours, because its issue is
 *   two agent calls and AgentRouter maps one route to one method:
 *     POST /issue  {credentialSubject}  createVerifiableCredential (JWT, EdDSA, did:key Ed25519 issuer)
 *                                      then dataStoreSaveVerifiableCredential: 201 only once it is stored
 *     POST /verify {credential}         verifyCredential: 200 {verified:true}, else 400
 * - Prints one JSON line {"ready":true,...} on stdout once listening on 127.0.0.1:PORT.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

/** Our Express 5 is what `require('express')` gives at the root; the remote-server's own Express 4 lives beside it. */
const express = require(require.resolve('express', { paths: [path.dirname(require.resolve('@veramo/remote-server'))] }));

const EXPOSED = ['createVerifiableCredential', 'dataStoreSaveVerifiableCredential', 'verifyCredential'];

async function createAgent(url, secretKey) {
  const { DataSource } = await import('typeorm');
  const { createAgent: create } = await import('@veramo/core');
  const { KeyManager } = await import('@veramo/key-manager');
  const { KeyManagementSystem, SecretBox } = await import('@veramo/kms-local');
  const { DIDManager } = await import('@veramo/did-manager');
  const { KeyDIDProvider, getDidKeyResolver } = await import('@veramo/did-provider-key');
  const { DIDResolverPlugin } = await import('@veramo/did-resolver');
  const { CredentialPlugin } = await import('@veramo/credential-w3c');
  const { CredentialProviderJWT } = await import('@veramo/credential-jwt');
  const { DataStore, DataStoreORM, DIDStore, Entities, KeyStore, PrivateKeyStore, migrations } = await import('@veramo/data-store');
  const { Resolver } = await import('did-resolver');
  const db = new DataSource({ type: 'postgres', url, entities: Entities, migrations, migrationsRun: true, synchronize: false, logging: false });
  await db.initialize();
  const agent = create({
    plugins: [
      new KeyManager({ store: new KeyStore(db), kms: { local: new KeyManagementSystem(new PrivateKeyStore(db, new SecretBox(secretKey))) } }),
      new DIDManager({ store: new DIDStore(db), defaultProvider: 'did:key', providers: { 'did:key': new KeyDIDProvider({ defaultKms: 'local' }) } }),
      new DIDResolverPlugin({ resolver: new Resolver({ ...getDidKeyResolver() }) }),
      new CredentialPlugin([new CredentialProviderJWT()]),
      new DataStore(db),
      new DataStoreORM(db),
    ],
  });
  return { agent, db };
}

/**
 * The same credential shape as bench/veramo-runner.js (and the three attributes of the Credgate
 * template), plus an id of its own, as every Credgate credential has: without it two issues in the
 * same second are the same JWT (EdDSA is deterministic, iat has one-second resolution), and the
 * second save fails on the credential table's primary key (its hash).
 */
function credentialFor(issuer, holder, subject) {
  return {
    credential: {
      id: `urn:uuid:${crypto.randomUUID()}`,
      issuer: { id: issuer },
      type: ['VerifiableCredential', 'BenchBadge'],
      credentialSubject: { id: holder, ...subject },
      expirationDate: new Date(Date.now() + 2 * 365 * 86_400_000).toISOString(),
    },
    proofFormat: 'jwt',
  };
}

function app({ AgentRouter, RequestWithAgentRouter }, agent, issuer, holder) {
  const server = express();
  server.disable('x-powered-by');
  server.use(RequestWithAgentRouter({ agent }));
  server.use('/agent', AgentRouter({ exposedMethods: EXPOSED }));
  server.use(express.json({ limit: '1mb' }));
  server.post('/issue', async (req, res) => {
    try {
      const subject = req.body && typeof req.body.credentialSubject === 'object' ? req.body.credentialSubject : {};
      const vc = await req.agent.createVerifiableCredential(credentialFor(issuer, holder, subject));
      const hash = await req.agent.dataStoreSaveVerifiableCredential({ verifiableCredential: vc });
      res.status(201).json({ hash, credential: vc });
    } catch (e) {
      res.status(500).json({ error: e instanceof Error ? e.message : String(e) });
    }
  });
  server.post('/verify', async (req, res) => {
    try {
      const r = await req.agent.verifyCredential({ credential: req.body?.credential });
      res.status(r.verified ? 200 : 400).json({ verified: r.verified, ...(r.error ? { error: r.error.message } : {}) });
    } catch (e) {
      res.status(400).json({ verified: false, error: e instanceof Error ? e.message : String(e) });
    }
  });
  return server;
}

function version(pkgMain) {
  return JSON.parse(fs.readFileSync(path.join(path.dirname(require.resolve(pkgMain)), '..', 'package.json'), 'utf8')).version;
}

async function main() {
  const url = process.env.VERAMO_DATABASE_URL;
  const secretKey = process.env.VERAMO_SECRET_KEY;
  const port = Number(process.env.PORT);
  if (!url || !secretKey || !Number.isInteger(port)) throw new Error('VERAMO_DATABASE_URL, VERAMO_SECRET_KEY and PORT are required');
  const { agent } = await createAgent(url, secretKey);
  const routers = await import('@veramo/remote-server');
  // Issuer and holder: did:key Ed25519, keys stored (encrypted) in PostgreSQL by the agent.
  const issuer = (await agent.didManagerCreate({ provider: 'did:key', options: { keyType: 'Ed25519' } })).did;
  const holder = (await agent.didManagerCreate({ provider: 'did:key', options: { keyType: 'Ed25519' } })).did;
  const server = app(routers, agent, issuer, holder).listen(port, '127.0.0.1');
  await new Promise((resolve, reject) => server.once('listening', resolve).once('error', reject));
  process.stdout.write(
    `${JSON.stringify({ ready: true, url: `http://127.0.0.1:${port}`, issuer, versions: { veramo: version('@veramo/core'), express: express.application ? require(path.join(path.dirname(require.resolve('express', { paths: [path.dirname(require.resolve('@veramo/remote-server'))] })), 'package.json')).version : 'unknown' } })}\n`,
  );
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((e) => {
  process.stderr.write(`veramo-service: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
