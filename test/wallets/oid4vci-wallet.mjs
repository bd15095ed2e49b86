// An independent OID4VCI 1.0 wallet for the issuer's process tests: the OpenWallet Foundation's
// oid4vc-ts CLIENT classes (Openid4vciClient, over Oauth2Client) with node:crypto keys. It shares no
// code with Credgate. It runs as its own process: `node oid4vci-wallet.mjs <input.json>` and prints
// one JSON line: { steps: [...], credentials: [...] } or { error, message }.
//
// `mode` picks the flow or one of the negative tests of the OpenID Foundation's OID4VCI conformance
// plan (wrong / reused pre-authorized code, wrong tx_code, missing / replayed DPoP proof, replayed or
// expired nonce, proof signed by another key, unsupported format). A deferred flow prints
// {"pending": true} and waits for one line on stdin before asking again.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, randomUUID, sign as nodeSign } from 'node:crypto';
import { Openid4vciClient } from '@openid4vc/openid4vci';
import { setGlobalConfig } from '@openid4vc/utils';

// Loopback http:// URLs of the test service: process-wide, and this process is only a test wallet.
setGlobalConfig({ allowInsecureUrls: true });

const input = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const mode = input.mode ?? 'pre-authorized';
const b64u = (b) => Buffer.from(b).toString('base64url');

/** P-256 keys held by this wallet, found again by their public x coordinate. */
const keys = new Map();
function newKey() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  keys.set(jwk.x, privateKey);
  return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
}
const signerOf = (jwk) => ({ method: 'jwk', alg: 'ES256', publicJwk: jwk });

/**
 * The wallet provider's attestation key (input.walletProvider: its private JWK and x5c chain, made
 * by the test under a root the service trusts): what a genuine wallet app carries to vouch for
 * itself (OAuth client attestation) and for its keys (key attestation).
 */
function providerKey() {
  const { privateJwk } = input.walletProvider;
  keys.set(privateJwk.x, createPrivateKey({ key: privateJwk, format: 'jwk' }));
  return { kty: 'EC', crv: 'P-256', x: privateJwk.x, y: privateJwk.y };
}

function signCompact(header, payload, jwk) {
  const key = keys.get(jwk.x);
  const data = `${b64u(JSON.stringify(header))}.${b64u(JSON.stringify(payload))}`;
  return `${data}.${b64u(nodeSign('sha256', Buffer.from(data), { key, dsaEncoding: 'ieee-p1363' }))}`;
}

// Some negative modes swap the key that signs a proof after the header named another one.
let signWith = null;
const callbacks = {
  hash: (data, alg) => createHash({ 'sha-256': 'sha256', 'sha-384': 'sha384' }[alg] ?? 'sha256').update(data).digest(),
  generateRandom: (n) => randomBytes(n),
  fetch: (...args) => fetch(...args),
  signJwt: async (signer, { header, payload }) => {
    const jwk = signer.publicJwk;
    const jwt = signCompact(header, payload, signWith && header.typ === 'openid4vci-proof+jwt' ? signWith : jwk);
    return { jwt, signerJwk: jwk };
  },
  verifyJwt: async () => ({ verified: false }),
  clientAuthentication: () => undefined,
};

const client = new Openid4vciClient({ callbacks });
const steps = [];
const record = (step, value) => steps.push({ step, ...value });

/** A refusal as the wallet saw it: HTTP status and OAuth error body. */
function refusal(e) {
  const body = e?.errorResponse ?? e?.response?.body ?? null;
  const status = e?.response?.status ?? e?.status ?? null;
  return { ok: false, status, error: body?.error ?? null, description: body?.error_description ?? e?.message ?? String(e) };
}
async function attempt(step, fn) {
  try {
    const value = await fn();
    record(step, { ok: true });
    return value;
  } catch (e) {
    record(step, refusal(e));
    return undefined;
  }
}

/** Raw HTTP for requests the client would never send (a missing DPoP header, a replayed proof). */
async function raw(url, { method = 'POST', headers = {}, form, json }) {
  const body = form ? new URLSearchParams(form).toString() : json ? JSON.stringify(json) : undefined;
  const h = { ...headers, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : json ? { 'content-type': 'application/json' } : {}) };
  const res = await fetch(url, { method, headers: h, body, redirect: 'manual' });
  const text = await res.text();
  let parsed = null;
  try { parsed = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, body: parsed, headers: Object.fromEntries(res.headers) };
}

function dpopProof(jwk, { htm, htu, accessToken, nonce, jti = randomUUID(), iat = Math.floor(Date.now() / 1000) }) {
  const payload = { htm, htu, iat, jti, ...(nonce ? { nonce } : {}), ...(accessToken ? { ath: b64u(createHash('sha256').update(accessToken).digest()) } : {}) };
  return signCompact({ typ: 'dpop+jwt', alg: 'ES256', jwk }, payload, jwk);
}

function keyProof(jwk, { aud, nonce, iat = Math.floor(Date.now() / 1000), signer = jwk }) {
  return signCompact({ typ: 'openid4vci-proof+jwt', alg: 'ES256', jwk }, { aud, iat, ...(nonce ? { nonce } : {}) }, signer);
}

async function main() {
  const offer = await client.resolveCredentialOffer(input.offerUri);
  const metadata = await client.resolveIssuerMetadata(offer.credential_issuer);
  const issuer = metadata.credentialIssuer;
  const as = metadata.authorizationServers[0];
  const configurationId = input.configurationId ?? offer.credential_configuration_ids[0];
  record('resolved', { ok: true, issuer: issuer.credential_issuer, format: issuer.credential_configurations_supported[configurationId]?.format });
  const dpopKey = newKey();
  const preAuthCode = offer.grants?.['urn:ietf:params:oauth:grant-type:pre-authorized_code']?.['pre-authorized_code'];

  // ---- token --------------------------------------------------------------------------------
  let token;
  let dpop = { signer: signerOf(dpopKey) };
  if (mode === 'authorization-code') {
    const redirectUri = 'https://wallet.example/callback';
    const auth = await attempt('par-request', () => client.initiateAuthorization({ credentialOffer: offer, issuerMetadata: metadata, clientId: 'test-wallet', redirectUri, scope: configurationId, dpop }));
    if (!auth) return;
    record('par', { ok: true, flow: auth.authorizationFlow, pushed: auth.authorizationRequestUrl.includes('request_uri=') });
    const loginUrl = new URL(auth.authorizationRequestUrl);
    loginUrl.searchParams.set('login_hint', input.loginHint ?? '');
    const login = await raw(loginUrl.toString(), { method: 'GET' });
    const back = new URL(login.headers.location);
    record('authorize', { ok: back.searchParams.has('code'), status: login.status, error: back.searchParams.get('error'), iss: back.searchParams.get('iss') });
    if (!back.searchParams.has('code')) return;
    const got = await attempt('token', () =>
      client.retrieveAuthorizationCodeAccessTokenFromOffer({ credentialOffer: offer, issuerMetadata: metadata, authorizationCode: back.searchParams.get('code'), pkceCodeVerifier: auth.pkce?.codeVerifier, redirectUri, dpop, additionalRequestPayload: { client_id: 'test-wallet' } }),
    );
    if (!got) return;
    token = got.accessTokenResponse;
    dpop = got.dpop ?? dpop;
  } else if (mode === 'missing-dpop') {
    const res = await raw(as.token_endpoint, { form: { grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code', 'pre-authorized_code': preAuthCode, ...(input.txCode ? { tx_code: input.txCode } : {}) } });
    record('token', { ok: res.status === 200, status: res.status, error: res.body?.error });
    return;
  } else if (mode === 'dpop-nonce-raw') {
    // A server that asks for DPoP nonces: the first proof has none, the answer carries one to use.
    const form = { grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code', 'pre-authorized_code': preAuthCode, ...(input.txCode ? { tx_code: input.txCode } : {}) };
    const first = await raw(as.token_endpoint, { headers: { DPoP: dpopProof(dpopKey, { htm: 'POST', htu: as.token_endpoint }) }, form });
    record('token-without-nonce', { ok: first.status === 200, status: first.status, error: first.body?.error, dpopNonce: first.headers['dpop-nonce'] ?? null });
    const second = await raw(as.token_endpoint, { headers: { DPoP: dpopProof(dpopKey, { htm: 'POST', htu: as.token_endpoint, nonce: first.headers['dpop-nonce'] }) }, form });
    record('token-with-nonce', { ok: second.status === 200, status: second.status, error: second.body?.error, tokenType: second.body?.token_type ?? null });
    return;
  } else if (mode === 'self-signed-attestation') {
    // A wallet attestation anyone could make: signed by a key of the wallet's own (jwk, no x5c chain).
    const provider = newKey();
    const now = Math.floor(Date.now() / 1000);
    const attestation = signCompact({ typ: 'oauth-client-attestation+jwt', alg: 'ES256', jwk: provider }, { iss: 'https://wallet-provider.example', sub: 'test-wallet', iat: now, exp: now + 600, cnf: { jwk: dpopKey } }, provider);
    const pop = signCompact({ typ: 'oauth-client-attestation-pop+jwt', alg: 'ES256' }, { iss: 'test-wallet', aud: as.issuer, jti: randomUUID(), iat: now }, dpopKey);
    const res = await raw(as.token_endpoint, {
      headers: { DPoP: dpopProof(dpopKey, { htm: 'POST', htu: as.token_endpoint }), 'OAuth-Client-Attestation': attestation, 'OAuth-Client-Attestation-PoP': pop },
      form: { grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code', 'pre-authorized_code': preAuthCode, ...(input.txCode ? { tx_code: input.txCode } : {}), client_id: 'test-wallet' },
    });
    record('token', { ok: res.status === 200, status: res.status, error: res.body?.error, description: res.body?.error_description });
    return;
  } else if (mode === 'provider-attestation') {
    // A wallet attestation from a wallet provider the issuer trusts (x5c to its anchors), bound to
    // the DPoP key (cnf), with its PoP: the token is issued, and the honest flow goes on.
    const provider = providerKey();
    const now = Math.floor(Date.now() / 1000);
    const attestation = signCompact({ typ: 'oauth-client-attestation+jwt', alg: 'ES256', x5c: input.walletProvider.x5c }, { iss: 'https://wallet-provider.example', sub: 'test-wallet', iat: now, exp: now + 600, cnf: { jwk: dpopKey } }, provider);
    const pop = signCompact({ typ: 'oauth-client-attestation-pop+jwt', alg: 'ES256' }, { iss: 'test-wallet', aud: as.issuer, jti: randomUUID(), iat: now }, dpopKey);
    const res = await raw(as.token_endpoint, {
      headers: { DPoP: dpopProof(dpopKey, { htm: 'POST', htu: as.token_endpoint }), 'OAuth-Client-Attestation': attestation, 'OAuth-Client-Attestation-PoP': pop },
      form: { grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code', 'pre-authorized_code': preAuthCode, ...(input.txCode ? { tx_code: input.txCode } : {}), client_id: 'test-wallet' },
    });
    record('token', { ok: res.status === 200, status: res.status, error: res.body?.error, description: res.body?.error_description });
    if (res.status !== 200) return;
    token = res.body;
    dpop = { signer: signerOf(dpopKey), ...(res.headers['dpop-nonce'] ? { nonce: res.headers['dpop-nonce'] } : {}) };
  } else if (mode === 'missing-tx-code') {
    // The client would not send this; the issuer must answer it without counting a failure.
    const res = await raw(as.token_endpoint, { headers: { DPoP: dpopProof(dpopKey, { htm: 'POST', htu: as.token_endpoint }) }, form: { grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code', 'pre-authorized_code': preAuthCode } });
    record('token-without-tx-code', { ok: res.status === 200, status: res.status, error: res.body?.error });
    await attempt('token', () => client.retrievePreAuthorizedCodeAccessTokenFromOffer({ credentialOffer: offer, issuerMetadata: metadata, txCode: input.txCode, dpop }));
    return;
  } else if (mode === 'replayed-dpop-token') {
    // The same DPoP proof on two token requests: the second is refused even with a fresh code's worth of other parameters.
    const proof = dpopProof(dpopKey, { htm: 'POST', htu: as.token_endpoint });
    const form = { grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code', 'pre-authorized_code': preAuthCode, ...(input.txCode ? { tx_code: input.txCode } : {}) };
    const first = await raw(as.token_endpoint, { headers: { DPoP: proof }, form: { ...form, 'pre-authorized_code': 'not-the-code' } });
    record('token-wrong-code', { ok: first.status === 200, status: first.status, error: first.body?.error });
    const second = await raw(as.token_endpoint, { headers: { DPoP: proof }, form });
    record('token-replayed-proof', { ok: second.status === 200, status: second.status, error: second.body?.error });
    return;
  } else {
    const codes = mode === 'wrong-tx-code' ? input.wrongTxCodes : [input.txCode];
    for (const [i, txCode] of codes.entries()) {
      const got = await attempt(`token${mode === 'wrong-tx-code' ? `-${i + 1}` : ''}`, () =>
        client.retrievePreAuthorizedCodeAccessTokenFromOffer({ credentialOffer: offer, issuerMetadata: metadata, ...(txCode ? { txCode } : {}), dpop }),
      );
      if (got) {
        token = got.accessTokenResponse;
        dpop = got.dpop ?? dpop;
      }
    }
    if (mode === 'wrong-tx-code') return;
    if (!token) return;
    if (mode === 'reused-code') {
      await attempt('token-again', () => client.retrievePreAuthorizedCodeAccessTokenFromOffer({ credentialOffer: offer, issuerMetadata: metadata, ...(input.txCode ? { txCode: input.txCode } : {}), dpop: { signer: signerOf(newKey()) } }));
      return;
    }
  }
  record('token-type', { ok: true, tokenType: token.token_type });
  const accessToken = token.access_token;

  // ---- negative modes at the credential endpoint -------------------------------------------
  const credentialEndpoint = issuer.credential_endpoint;
  const nonce = async () => (await client.requestNonce({ issuerMetadata: metadata })).c_nonce;
  const holder = newKey();
  const bodyFor = (proofs, id = configurationId) => ({ credential_configuration_id: id, proofs: { jwt: proofs } });
  const credentialRaw = async (body, proof = dpopProof(dpopKey, { htm: 'POST', htu: credentialEndpoint, accessToken, nonce: dpop.nonce })) => {
    const res = await raw(credentialEndpoint, { headers: { Authorization: `DPoP ${accessToken}`, DPoP: proof }, json: body });
    // A server asking for DPoP nonces (RFC 9449 §9): once more with the nonce it gave.
    if (res.status !== 401 || res.body?.error !== 'use_dpop_nonce') return res;
    dpop = { ...dpop, nonce: res.headers['dpop-nonce'] };
    return raw(credentialEndpoint, { headers: { Authorization: `DPoP ${accessToken}`, DPoP: dpopProof(dpopKey, { htm: 'POST', htu: credentialEndpoint, accessToken, nonce: dpop.nonce }) }, json: body });
  };
  const note = (step, res) => record(step, { ok: res.status === 200, status: res.status, error: res.body?.error, description: res.body?.error_description ?? null, wwwAuthenticate: res.headers['www-authenticate'] ?? null });

  if (mode === 'replayed-nonce') {
    const n = await nonce();
    note('credential', await credentialRaw(bodyFor([keyProof(holder, { aud: issuer.credential_issuer, nonce: n })])));
    note('credential-same-nonce', await credentialRaw(bodyFor([keyProof(newKey(), { aud: issuer.credential_issuer, nonce: n })])));
    return;
  }
  if (mode === 'self-signed-key-attestation') {
    // A key attestation the wallet made for itself: signed by its own key, no chain to a provider.
    const attester = newKey();
    const n = await nonce();
    const attestation = signCompact({ typ: 'key-attestation+jwt', alg: 'ES256', jwk: attester }, { iat: Math.floor(Date.now() / 1000), attested_keys: [holder], key_storage: ['iso_18045_high'], user_authentication: ['iso_18045_high'], nonce: n }, attester);
    const proof = signCompact({ typ: 'openid4vci-proof+jwt', alg: 'ES256', jwk: holder, key_attestation: attestation }, { aud: issuer.credential_issuer, iat: Math.floor(Date.now() / 1000), nonce: n }, holder);
    note('credential', await credentialRaw(bodyFor([proof])));
    return;
  }
  if (mode === 'provider-key-attestation') {
    // A key attestation by a trusted wallet provider (x5c to the issuer's anchors) naming the proof key.
    const provider = providerKey();
    const n = await nonce();
    const iat = Math.floor(Date.now() / 1000);
    const attestation = signCompact({ typ: 'key-attestation+jwt', alg: 'ES256', x5c: input.walletProvider.x5c }, { iat, attested_keys: [holder], key_storage: ['iso_18045_high'], user_authentication: ['iso_18045_high'], nonce: n }, provider);
    const proof = signCompact({ typ: 'openid4vci-proof+jwt', alg: 'ES256', jwk: holder, key_attestation: attestation }, { aud: issuer.credential_issuer, iat, nonce: n }, holder);
    const res = await credentialRaw(bodyFor([proof]));
    note('credential', res);
    return { credentials: (res.body?.credentials ?? []).map((c) => c.credential), holders: [holder] };
  }
  if (mode === 'no-key-attestation') {
    note('credential', await credentialRaw(bodyFor([keyProof(holder, { aud: issuer.credential_issuer, nonce: await nonce() })])));
    return;
  }
  if (mode === 'unknown-nonce') {
    note('credential', await credentialRaw(bodyFor([keyProof(holder, { aud: issuer.credential_issuer, nonce: b64u(randomBytes(32)) })])));
    return;
  }
  if (mode === 'stale-proof') {
    note('credential', await credentialRaw(bodyFor([keyProof(holder, { aud: issuer.credential_issuer, nonce: await nonce(), iat: Math.floor(Date.now() / 1000) - 3600 })])));
    return;
  }
  if (mode === 'other-key-proof') {
    note('credential', await credentialRaw(bodyFor([keyProof(holder, { aud: issuer.credential_issuer, nonce: await nonce(), signer: newKey() })])));
    return;
  }
  if (mode === 'wrong-audience') {
    note('credential', await credentialRaw(bodyFor([keyProof(holder, { aud: 'https://someone-else.example', nonce: await nonce() })])));
    return;
  }
  if (mode === 'unsupported-format') {
    note('credential', await credentialRaw({ format: 'vc+made-up', proofs: { jwt: [keyProof(holder, { aud: issuer.credential_issuer, nonce: await nonce() })] } }));
    note('credential-unknown-configuration', await credentialRaw(bodyFor([keyProof(holder, { aud: issuer.credential_issuer, nonce: await nonce() })], 'no.such.configuration')));
    return;
  }
  if (mode === 'credential-missing-dpop') {
    const res = await raw(credentialEndpoint, { headers: { Authorization: `DPoP ${accessToken}` }, json: bodyFor([keyProof(holder, { aud: issuer.credential_issuer, nonce: await nonce() })]) });
    note('credential', res);
    return;
  }
  if (mode === 'credential-replayed-dpop') {
    const proof = dpopProof(dpopKey, { htm: 'POST', htu: credentialEndpoint, accessToken });
    note('credential', await credentialRaw(bodyFor([keyProof(holder, { aud: issuer.credential_issuer, nonce: await nonce() })]), proof));
    note('credential-replayed', await credentialRaw(bodyFor([keyProof(newKey(), { aud: issuer.credential_issuer, nonce: await nonce() })]), proof));
    return;
  }
  if (mode === 'credential-other-dpop-key') {
    const other = newKey();
    note('credential', await credentialRaw(bodyFor([keyProof(holder, { aud: issuer.credential_issuer, nonce: await nonce() })]), dpopProof(other, { htm: 'POST', htu: credentialEndpoint, accessToken })));
    return;
  }

  // ---- the honest flows ----------------------------------------------------------------------
  const holders = Array.from({ length: input.batch ?? 1 }, () => (input.batch ? newKey() : holder));
  const proofs = [];
  for (const h of holders) {
    const { jwt } = await client.createCredentialRequestJwtProof({ issuerMetadata: metadata, signer: signerOf(h), nonce: await nonce(), credentialConfigurationId: configurationId });
    proofs.push(jwt);
  }
  const got = await attempt('credential', () => client.retrieveCredentials({ issuerMetadata: metadata, accessToken, credentialConfigurationId: configurationId, proofs: { jwt: proofs }, dpop }));
  if (!got) return;
  dpop = got.dpop ?? dpop;
  let response = got.credentialResponse;
  if (response.transaction_id) {
    record('deferred', { ok: true, interval: response.interval });
    const pending = await attempt('deferred-early', () => client.retrieveDeferredCredentials({ issuerMetadata: metadata, accessToken, transactionId: response.transaction_id, dpop }));
    if (pending) {
      dpop = pending.dpop ?? dpop;
      record('deferred-early-answer', { ok: !pending.deferredCredentialResponse.credentials, stillPending: pending.deferredCredentialResponse.transaction_id === response.transaction_id });
    }
    process.stdout.write(`${JSON.stringify({ pending: true })}\n`);
    const rl = createInterface({ input: process.stdin });
    await new Promise((resolve) => rl.once('line', resolve));
    rl.close();
    const done = await attempt('deferred-ready', () => client.retrieveDeferredCredentials({ issuerMetadata: metadata, accessToken, transactionId: response.transaction_id, dpop }));
    if (!done) return;
    dpop = done.dpop ?? dpop;
    response = done.deferredCredentialResponse;
    const again = await raw(issuer.deferred_credential_endpoint, { headers: { Authorization: `DPoP ${accessToken}`, DPoP: dpopProof(dpopKey, { htm: 'POST', htu: issuer.deferred_credential_endpoint, accessToken, nonce: dpop.nonce }) }, json: { transaction_id: got.credentialResponse.transaction_id } });
    record('deferred-again', { ok: again.status === 200, status: again.status, error: again.body?.error });
  }
  const credentials = (response.credentials ?? []).map((c) => c.credential);
  record('credentials', { ok: credentials.length > 0, count: credentials.length, notificationId: response.notification_id ?? null });
  if (response.notification_id && input.notify) {
    await attempt('notification', () => client.sendNotification({ issuerMetadata: metadata, accessToken, notification: { notificationId: response.notification_id, event: input.notify }, dpop }));
  }
  return { credentials, holders };
}

main().then(
  (out) => {
    // A test that goes on to present the credential (as a wallet app would) asks for the holder keys.
    const privateJwks = input.exportHolderKeys ? { holderPrivateJwks: (out?.holders ?? []).map((h) => keys.get(h.x).export({ format: 'jwk' })) } : {};
    process.stdout.write(`${JSON.stringify({ steps, credentials: out?.credentials ?? [], holderJwks: out?.holders ?? [], ...privateJwks })}\n`);
  },
  (e) => process.stdout.write(`${JSON.stringify({ steps, error: 'wallet_failed', message: e?.stack ?? String(e) })}\n`),
);
