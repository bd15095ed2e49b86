/**
 * Veramo 7 (an independent VC-JWT implementation) driven from jest through a child process: Veramo
 * is ESM and jest's module system is not where it should run. One JSON request per stdin line, one
 * JSON answer per stdout line: { id, ok: true, result } or { id, ok: false, error }.
 *
 * Operations: createIdentifier {keyType} → {did}; issueCredential {credential} → {jwt};
 * verifyCredential {jwt} → {verified, error?}; createPresentation {holder, credentials, challenge,
 * domain} → {jwt}; verifyPresentation {jwt, challenge, domain} → {verified, error?}.
 */
import { createInterface } from 'node:readline';
import { createAgent } from '@veramo/core';
import { KeyManager, MemoryKeyStore, MemoryPrivateKeyStore } from '@veramo/key-manager';
import { KeyManagementSystem } from '@veramo/kms-local';
import { DIDManager, MemoryDIDStore } from '@veramo/did-manager';
import { KeyDIDProvider, getDidKeyResolver } from '@veramo/did-provider-key';
import { DIDResolverPlugin } from '@veramo/did-resolver';
import { CredentialPlugin } from '@veramo/credential-w3c';
import { CredentialProviderJWT } from '@veramo/credential-jwt';
import { Resolver } from 'did-resolver';

const agent = createAgent({
  plugins: [
    new KeyManager({ store: new MemoryKeyStore(), kms: { local: new KeyManagementSystem(new MemoryPrivateKeyStore()) } }),
    new DIDManager({ store: new MemoryDIDStore(), defaultProvider: 'did:key', providers: { 'did:key': new KeyDIDProvider({ defaultKms: 'local' }) } }),
    new DIDResolverPlugin({ resolver: new Resolver({ ...getDidKeyResolver() }) }),
    new CredentialPlugin([new CredentialProviderJWT()]),
  ],
});

const jwtOf = (vc) => (typeof vc === 'string' ? vc : vc.proof.jwt);

const operations = {
  async createIdentifier({ keyType }) {
    const identifier = await agent.didManagerCreate({ provider: 'did:key', options: { keyType } });
    return { did: identifier.did };
  },
  async issueCredential({ credential }) {
    const vc = await agent.createVerifiableCredential({ credential, proofFormat: 'jwt' });
    return { jwt: jwtOf(vc) };
  },
  async verifyCredential({ jwt }) {
    const result = await agent.verifyCredential({ credential: jwt });
    return { verified: result.verified, error: result.error?.message };
  },
  async createPresentation({ holder, credentials, challenge, domain }) {
    const vp = await agent.createVerifiablePresentation({
      presentation: { holder, verifiableCredential: credentials },
      proofFormat: 'jwt',
      challenge,
      domain,
    });
    return { jwt: jwtOf(vp) };
  },
  async verifyPresentation({ jwt, challenge, domain }) {
    const result = await agent.verifyPresentation({ presentation: jwt, challenge, domain });
    return { verified: result.verified, error: result.error?.message };
  },
};

const lines = createInterface({ input: process.stdin });
lines.on('line', async (line) => {
  let request;
  try {
    request = JSON.parse(line);
    const op = operations[request.op];
    if (!op) throw new Error(`unknown operation ${request.op}`);
    process.stdout.write(`${JSON.stringify({ id: request.id, ok: true, result: await op(request) })}\n`);
  } catch (e) {
    process.stdout.write(`${JSON.stringify({ id: request?.id, ok: false, error: e instanceof Error ? e.message : String(e) })}\n`);
  }
});
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
