'use strict';
/**
 * The Veramo 7 side of `npm run bench`, in a child process of its own (forked by service.bench.js)
 * so its CPU time and peak RSS are read from /proc exactly like the Credgate server's.
 *
 * One in-process agent: memory key/DID stores, did:key Ed25519 issuer and holder, JWT proofs
 * (EdDSA). Operations: issue (createVerifiableCredential), verify (verifyCredential), vpCreate
 * (createVerifiablePresentation) and vpVerify (verifyPresentation). A 'run' message drives one
 * operation either closed-loop (N calls in flight) or open-loop at a fixed rate, and answers with
 * the per-call latencies — the same shape the autocannon side produces.
 */
const fs = require('node:fs');
const path = require('node:path');
const { closedLoop, openLoop } = require('./load-loops');

async function createVeramoAgent() {
  const { createAgent } = await import('@veramo/core');
  const { KeyManager, MemoryKeyStore, MemoryPrivateKeyStore } = await import('@veramo/key-manager');
  const { KeyManagementSystem } = await import('@veramo/kms-local');
  const { DIDManager, MemoryDIDStore } = await import('@veramo/did-manager');
  const { KeyDIDProvider, getDidKeyResolver } = await import('@veramo/did-provider-key');
  const { DIDResolverPlugin } = await import('@veramo/did-resolver');
  const { CredentialPlugin } = await import('@veramo/credential-w3c');
  const { CredentialProviderJWT } = await import('@veramo/credential-jwt');
  const { Resolver } = await import('did-resolver');
  return createAgent({
    plugins: [
      new KeyManager({ store: new MemoryKeyStore(), kms: { local: new KeyManagementSystem(new MemoryPrivateKeyStore()) } }),
      new DIDManager({ store: new MemoryDIDStore(), defaultProvider: 'did:key', providers: { 'did:key': new KeyDIDProvider({ defaultKms: 'local' }) } }),
      new DIDResolverPlugin({ resolver: new Resolver({ ...getDidKeyResolver() }) }),
      new CredentialPlugin([new CredentialProviderJWT()]),
    ],
  });
}

/** Same three attributes as the Credgate Family B template of the bench. */
const SUBJECT = { name: 'Grace Hopper', birthDate: '1990-12-09', employeeNo: 7 };

async function setup() {
  const agent = await createVeramoAgent();
  const issuer = await agent.didManagerCreate({ provider: 'did:key', options: { keyType: 'Ed25519' } });
  const holder = await agent.didManagerCreate({ provider: 'did:key', options: { keyType: 'Ed25519' } });
  const credentialInput = () => ({
    credential: {
      issuer: { id: issuer.did },
      type: ['VerifiableCredential', 'BenchBadge'],
      credentialSubject: { id: holder.did, ...SUBJECT },
      expirationDate: new Date(Date.now() + 2 * 365 * 86_400_000).toISOString(),
    },
    proofFormat: 'jwt',
  });
  const credential = await agent.createVerifiableCredential(credentialInput());
  const presentationInput = () => ({
    presentation: { holder: holder.did, verifiableCredential: [credential] },
    proofFormat: 'jwt',
    challenge: 'bench-nonce',
    domain: 'verifier.example',
  });
  const presentation = await agent.createVerifiablePresentation(presentationInput());
  const must = (r) => {
    if (!r.verified) throw new Error(`Veramo verification failed: ${r.error?.message ?? 'unknown'}`);
  };
  const ops = {
    issue: () => agent.createVerifiableCredential(credentialInput()),
    verify: async () => must(await agent.verifyCredential({ credential })),
    vpCreate: () => agent.createVerifiablePresentation(presentationInput()),
    vpVerify: async () => must(await agent.verifyPresentation({ presentation, challenge: 'bench-nonce', domain: 'verifier.example' })),
  };
  // Each must work once before it is measured: a failing call would otherwise look fast.
  for (const op of Object.values(ops)) await op();
  return ops;
}

/** @veramo/core exports no package.json subpath, so read it from its folder. */
function veramoVersion() {
  const dir = path.dirname(require.resolve('@veramo/core'));
  return JSON.parse(fs.readFileSync(path.join(dir, '..', 'package.json'), 'utf8')).version;
}

async function main() {
  const ops = await setup();
  process.on('message', async (msg) => {
    if (msg.cmd === 'exit') process.exit(0);
    if (msg.cmd !== 'run') return;
    const op = ops[msg.op];
    try {
      if (!op) throw new Error(`unknown Veramo operation ${msg.op}`);
      const result = msg.rate ? await openLoop(op, msg.rate, msg.durationMs) : await closedLoop(op, msg.concurrency, msg.durationMs);
      process.send({ ok: true, result });
    } catch (e) {
      process.send({ ok: false, error: e instanceof Error ? e.message : String(e) });
    }
  });
  process.send({ ready: true, versions: { veramo: veramoVersion() } });
}

main().catch((e) => {
  process.send?.({ ready: false, error: e instanceof Error ? e.stack : String(e) });
  process.exit(1);
});
