'use strict';
/**
 * Sets up what the service benchmark drives: tenants and API keys through the service layer the
 * CLI uses (`createCore(...).services.auth.createApiKey`, in this process, on the bench database),
 * then DIDs, templates, schemas, holders and one credential of each kind through the GraphQL SDK
 * of a running service. Returns, per operation and transport, the exact HTTP request autocannon
 * repeats (REST path and body, or the GraphQL operation printed from the SDK's documents).
 */
const crypto = require('node:crypto');
const path = require('node:path');

const FB_ATTRIBUTES = [
  { attributeName: 'name', type: 'string', description: 'Full name' },
  { attributeName: 'birthDate', type: 'date', description: 'Date of birth' },
  { attributeName: 'employeeNo', type: 'integer', description: 'Employee number' },
];
const FB_VALUES = { name: 'Grace Hopper', birthDate: '1990-12-09', employeeNo: 7 };
const FA_ATTRIBUTES = [
  { attributeName: 'name', type: 'alphabet', description: 'Given name', required: true, maxLength: '20' },
  { attributeName: 'email', type: 'email', description: 'Work email', required: true },
  { attributeName: 'birthDate', type: 'date', description: 'Date of birth', required: true },
];
const FA_VALUES = { name: 'Alice', email: 'alice@example.com', birthDate: '1990-05-17' };
const SCOPES = ['issuer', 'holder', 'verifier'];

const tag = () => crypto.randomBytes(3).toString('hex');

/** Tenants with one API key each (issuer, holder and verifier scopes), via the service layer. */
async function createTenantKeys(root, env, slugs) {
  require('reflect-metadata');
  const { createCore } = require(path.join(root, 'dist', 'app'));
  const { parseConfig } = require(path.join(root, 'dist', 'config'));
  const { createLogger } = require(path.join(root, 'dist', 'logging', 'logger'));
  const { db, services } = await createCore({ config: parseConfig(env), logger: createLogger('warn') });
  try {
    const keys = {};
    for (const slug of slugs) keys[slug] = (await services.auth.createApiKey({ tenant: slug, scopes: SCOPES })).key;
    return keys;
  } finally {
    await db.close();
  }
}

function sdkFor(root, baseUrl, apiKey) {
  const { createCredgateClient } = require(path.join(root, 'dist', 'sdk'));
  return createCredgateClient({ url: `${baseUrl}/graphql`, apiKey });
}

/** A service-held key pair and its DID: { did (plain), topicId, publicKey }. */
async function keyedDid(sdk) {
  const kp = (await sdk.generateKeypair()).generateKeypair;
  const doc = (await sdk.createDid({ input: { method: 'credgate', publicKey: kp.publicKey } })).createDid.document;
  return { did: doc.id.slice(0, doc.id.lastIndexOf(':')), topicId: doc.topicId, publicKey: kp.publicKey };
}

/** A Family B issuer (DID + template) in the tenant of `sdk`. */
async function fbIssuer(sdk) {
  const issuer = await keyedDid(sdk);
  const t = (await sdk.createVcTemplate({ input: { templateName: `Bench badge ${tag()}`, description: 'Benchmark badge', issuer: issuer.did, attributes: FB_ATTRIBUTES, expiration: { value: 2, unit: 'years' } } }))
    .createVcTemplate;
  return { ...issuer, templateId: t.templateId };
}

function fbIssueInput(issuer, holderDid) {
  return { templateId: issuer.templateId, credentialSubject: FB_VALUES, holder: holderDid };
}

/** The request autocannon repeats, for REST and for GraphQL. */
function graphqlRequest(documents, print, operation, variables) {
  const doc = documents[`${operation}Document`];
  if (!doc) throw new Error(`no SDK document ${operation}`);
  return { method: 'POST', path: '/graphql', body: JSON.stringify({ query: print(doc), variables }) };
}

const restRequest = (method, p, body, headers = {}) => ({ method, path: p, body: JSON.stringify(body), headers });

/**
 * Everything the main matrix needs, in one tenant: Family A (issuer DID, schema, holder, one
 * credential), Family B (issuer, template, holder, one credential, one presentation).
 */
async function setupMain(root, baseUrl, apiKey) {
  const sdk = sdkFor(root, baseUrl, apiKey);
  const { print } = require('graphql');
  const documents = require(path.join(root, 'dist', 'sdk', 'generated'));
  const gql = (op, vars) => graphqlRequest(documents, print, op, vars);

  // Family A
  const issuerDid = (await sdk.issuerDid()).issuerDid;
  const schemaName = `BenchBadge${tag()}`;
  await sdk.createSchema({ input: { schemaName, description: 'Benchmark badge', attributes: FA_ATTRIBUTES, expiration: { value: 1, unit: 'years' }, dependantSchemas: [] } });
  const user = (await sdk.generateUserKeyPair()).generateUserKeyPair;
  const userDid = (await sdk.registerUserDid({ publicKey: user.publicKey })).registerUserDid;
  const userSignature = (await sdk.signUserData({ privateKey: user.privateKey, issuerDid, payload: { credentialSubject: { id: userDid, ...FA_VALUES } } })).signUserData;
  const holder = { did: userDid, publicKey: user.publicKey, userSignature };
  const faInput = { schemaName: `${schemaName}:1`, isEncrypted: false, credentialSubject: FA_VALUES };
  const faIssued = (await sdk.issueCredential({ holder, input: faInput })).issueCredential;
  const faVerifyInput = { publicKey: user.publicKey, userSignature: faIssued.userSignature, credentials: faIssued.verifiableCredential };

  // Family B
  const fb = await fbIssuer(sdk);
  const fbHolder = await keyedDid(sdk);
  const credential = (await sdk.issueTemplateCredential({ input: fbIssueInput(fb, fbHolder.did) })).issueTemplateCredential;
  const shared = { [credential.id]: ['name', 'birthDate'] };
  const vpInput = { credentialIds: [credential.id], sharedAttributes: shared, holderDID: fbHolder.did, challenge: 'bench-nonce', domain: 'verifier.example' };
  const vpToken = (await sdk.createPresentation({ input: vpInput })).createPresentation;
  const vpVerifyInput = { vpToken, sharedAttributes: shared, holderDID: fbHolder.did, holderPublicKey: fbHolder.publicKey, challenge: 'bench-nonce', domain: 'verifier.example' };

  const holderHeaders = { did: holder.did, publicKey: holder.publicKey, userSignature: holder.userSignature };
  return {
    sdk,
    fb,
    fbHolder,
    requests: {
      faIssue: {
        REST: restRequest('POST', '/issuer/verifiableCredential', faInput, holderHeaders),
        GraphQL: gql('IssueCredential', { holder, input: faInput }),
      },
      faVerify: {
        REST: restRequest('POST', '/verifier/verify', { credentials: faIssued.verifiableCredential }, { publicKey: user.publicKey, userSignature: faIssued.userSignature }),
        GraphQL: gql('VerifyCredential', { input: faVerifyInput }),
      },
      fbIssue: { REST: restRequest('POST', '/credentials', fbIssueInput(fb, fbHolder.did)), GraphQL: gql('IssueTemplateCredential', { input: fbIssueInput(fb, fbHolder.did) }) },
      fbVerify: { REST: restRequest('POST', '/credentials/verify', { credential }), GraphQL: gql('VerifyTemplateCredential', { credential }) },
      vpCreate: { REST: restRequest('POST', '/create-vp', vpInput), GraphQL: gql('CreatePresentation', { input: vpInput }) },
      vpVerify: { REST: restRequest('POST', '/verify-vp', vpVerifyInput), GraphQL: gql('VerifyPresentation', { input: vpVerifyInput }) },
    },
  };
}

/** A Family B issuer for the scaling runs: its REST issue request and (after `credential`) verify request. */
async function setupScalingIssuer(sdk, holderDid) {
  const issuer = await fbIssuer(sdk);
  return { ...issuer, issue: restRequest('POST', '/credentials', fbIssueInput(issuer, holderDid)) };
}

/** One credential of `issuer`, issued now (after a prefill it is the log's newest leaf), and its REST verify request. */
async function verifyRequestFor(sdk, issuer, holderDid) {
  const credential = (await sdk.issueTemplateCredential({ input: fbIssueInput(issuer, holderDid) })).issueTemplateCredential;
  return restRequest('POST', '/credentials/verify', { credential });
}

module.exports = { createTenantKeys, sdkFor, keyedDid, setupMain, setupScalingIssuer, verifyRequestFor };
