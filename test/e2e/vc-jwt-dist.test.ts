import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * jose is ESM-only; jest transforms it to CommonJS, so jest alone cannot show that the compiled
 * service (CommonJS in dist/, Node >= 20.19 require(esm)) loads it. This runs dist in a plain Node
 * process: issue and verify a JWT credential end to end, no jest module system involved.
 */
const root = path.resolve(__dirname, '..', '..');

const script = `
const { issueJwtCredential, verifyJwtCredential } = require('./dist/vc/jwt');
const { prepareCredentialForIssuance } = require('./dist/vc/model');
const { createKeySigner, didKeyIdentity, generateSigningKeyPair } = require('./dist/vc/signers/key-signer');
const { didKeyDocument } = require('./dist/domain/dids/did-key');
(async () => {
  const pair = generateSigningKeyPair('P-256');
  const { did, verificationMethod } = didKeyIdentity('P-256', pair.publicKey);
  const doc = didKeyDocument(did);
  const resolver = {
    resolve: async () => ({ didDocument: doc, method: 'key' }),
    dereferenceMethod: async (url) => ({ method: doc.verificationMethod.find((m) => m.id === url), controllerDocument: doc }),
  };
  const credential = prepareCredentialForIssuance(
    { '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiableCredential'], credentialSubject: { name: 'dist' } },
    { issuer: did, now: new Date() },
  );
  const jwt = await issueJwtCredential(credential, createKeySigner(pair, verificationMethod));
  const result = await verifyJwtCredential(jwt, { resolver, expectedProofPurpose: 'assertionMethod' });
  process.stdout.write(JSON.stringify({ verified: result.verified, suite: result.suite, errors: result.errors }));
})().catch((e) => { process.stderr.write(String(e && e.stack || e)); process.exit(1); });
`;

test('the compiled dist/vc/jwt loads jose under plain Node and verifies what it issues', () => {
  const out = execFileSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8', timeout: 30_000 });
  expect(JSON.parse(out)).toEqual({ verified: true, suite: 'vc+jwt', errors: [] });
});
