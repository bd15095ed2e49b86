'use strict';
/**
 * The library-only side of the wallet benchmark: the same two flows as the HTTP run, with the
 * OpenWallet Foundation's oid4vc-ts server classes (Oauth2AuthorizationServer,
 * Oauth2ResourceServer, Openid4vciIssuer, parseOpenid4vpAuthorizationResponse), @sd-jwt and dcql
 * called in this process: no HTTP, no database, state in Maps. Each step times only what the
 * server side does (the wallet's own signing happens between steps, as in the HTTP run), so the
 * two sides' per-step figures compare directly and the difference is what the service adds
 * (HTTP, auth, database rows, key custody, tenancy, audit).
 *
 * The URLs are https names that nothing listens on: oid4vc-ts checks the scheme, and the one
 * fetch the resource server makes (the authorization server's JWKS) is answered in-process.
 */
const { X509Certificate, createPrivateKey, randomBytes, randomUUID, sign: nodeSign } = require('node:crypto');
const { Oauth2AuthorizationServer, Oauth2ResourceServer, calculateJwkThumbprint, HashAlgorithm } = require('@openid4vc/oauth2');
const { Openid4vciIssuer } = require('@openid4vc/openid4vci');
const { parseOpenid4vpAuthorizationResponse } = require('@openid4vc/openid4vp');
const { SDJwtVcInstance } = require('@sd-jwt/sd-jwt-vc');
const { DcqlQuery, DcqlPresentationResult } = require('dcql');
const { compactDecrypt, importJWK } = require('jose');
const wallet = require('./oid4vc-wallet');

const ISSUER = 'https://issuer.bench.example';
const VERIFIER_HOST = 'verifier.bench.example';
const PRE_AUTH = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';
const b64u = wallet.b64u;
const token = () => b64u(randomBytes(32));

function publicJwkOf(signer) {
  if (signer.method === 'jwk') return signer.publicJwk;
  if (signer.method === 'x5c') return new X509Certificate(Buffer.from(signer.x5c[0], 'base64')).publicKey.export({ format: 'jwk' });
  return undefined;
}

/** oid4vc-ts callbacks with node:crypto; `signWith` signs the access tokens; `fetch` serves the AS JWKS in-process. */
function callbacks(signWith, jwks) {
  return {
    hash: (data, alg) => wallet.hasher(data, alg),
    generateRandom: (n) => randomBytes(n),
    clientAuthentication: () => undefined,
    fetch: async (url) => {
      if (String(url) === `${ISSUER}/jwks`) return new Response(JSON.stringify(jwks), { status: 200, headers: { 'content-type': 'application/json' } });
      throw new Error(`library bench: no network (${url})`);
    },
    signJwt: async (signer, { header, payload }) => ({ jwt: wallet.jws(header, payload, signWith.privateKey), signerJwk: signer.publicJwk }),
    verifyJwt: async (signer, { compact }) => {
      const jwk = publicJwkOf(signer);
      return jwk && wallet.verifyJws(compact, jwk) ? { verified: true, signerJwk: jwk } : { verified: false };
    },
  };
}

/**
 * The OID4VCI pre-authorized flow: offer → token (tx_code, DPoP) → nonce → credential (JWT proof,
 * an SD-JWT VC with every claim disclosable, bound to the proof's key), returning the step timer's
 * records. `issuerSigner` signs the credentials (a PKCS#8 key with its x5c).
 */
function oid4vciLibrary({ issuerSigner, claims }) {
  const asKey = wallet.newKey();
  const jwks = { keys: [{ ...asKey.jwk, kid: 'at', alg: 'ES256', use: 'sig' }] };
  const cb = callbacks(asKey, jwks);
  const vci = new Openid4vciIssuer({ callbacks: cb });
  const as = new Oauth2AuthorizationServer({ callbacks: cb });
  const rs = new Oauth2ResourceServer({ callbacks: cb });
  const asMetadata = { issuer: ISSUER, token_endpoint: `${ISSUER}/token`, jwks_uri: `${ISSUER}/jwks`, dpop_signing_alg_values_supported: ['ES256'], 'pre-authorized_grant_anonymous_access_supported': true };
  const credentialIssuer = vci.createCredentialIssuerMetadata({
    credential_issuer: ISSUER,
    credential_endpoint: `${ISSUER}/credential`,
    nonce_endpoint: `${ISSUER}/nonce`,
    credential_configurations_supported: {
      badge: { format: 'dc+sd-jwt', vct: `${ISSUER}/vct/badge`, cryptographic_binding_methods_supported: ['jwk'], credential_signing_alg_values_supported: ['ES256'], proof_types_supported: { jwt: { proof_signing_alg_values_supported: ['ES256'] } } },
    },
  });
  const issuerMetadata = { originalDraftVersion: 'v1', credentialIssuer, authorizationServers: [asMetadata], knownCredentialConfigurations: vci.getKnownCredentialConfigurationsSupported(credentialIssuer) };
  const offers = new Map();
  const nonces = new Map();
  const key = createPrivateKey(issuerSigner.privateKeyPem);
  const sdjwt = new SDJwtVcInstance({
    hasher: wallet.hasher,
    saltGenerator: () => b64u(randomBytes(16)),
    signer: async (data) => b64u(nodeSign('sha256', Buffer.from(data), { key, dsaEncoding: 'ieee-p1363' })),
    signAlg: 'ES256',
  });

  return async (_w, record) => {
    const timed = async (step, fn) => {
      const t0 = performance.now();
      const out = await fn();
      record(step, performance.now() - t0);
      return out;
    };
    // offer (the operator's call): a pre-authorized code and a 6-digit tx_code, by value.
    const offer = await timed('offer', async () => {
      const code = token();
      const txCode = String(randomBytes(4).readUInt32BE() % 1_000_000).padStart(6, '0');
      const { credentialOfferObject } = await vci.createCredentialOffer({ issuerMetadata, credentialConfigurationIds: ['badge'], grants: { [PRE_AUTH]: { 'pre-authorized_code': code, tx_code: { input_mode: 'numeric', length: 6 } } }, credentialOfferScheme: 'openid-credential-offer://' });
      offers.set(code, { txCode, claims });
      return { code, txCode, credentialOfferObject };
    });
    const dpopKey = wallet.newKey();
    const form = { grant_type: PRE_AUTH, 'pre-authorized_code': offer.code, tx_code: offer.txCode };
    const tokenDpop = wallet.dpopProof(dpopKey, { htm: 'POST', htu: asMetadata.token_endpoint });
    const tokenResponse = await timed('token', async () => {
      const request = { method: 'POST', url: asMetadata.token_endpoint, headers: new Headers({ dpop: tokenDpop, 'content-type': 'application/x-www-form-urlencoded' }) };
      const parsed = as.parseAccessTokenRequest({ request, accessTokenRequest: form });
      const stored = offers.get(parsed.grant.preAuthorizedCode);
      if (!stored) throw new Error('unknown pre-authorized code');
      const verified = await as.verifyPreAuthorizedCodeAccessTokenRequest({ authorizationServerMetadata: asMetadata, grant: parsed.grant, accessTokenRequest: parsed.accessTokenRequest, request, expectedPreAuthorizedCode: offer.code, expectedTxCode: stored.txCode, dpop: { required: true, jwt: parsed.dpop?.jwt, allowedSigningAlgs: ['ES256'] } });
      offers.delete(offer.code);
      return as.createAccessTokenResponse({ authorizationServer: ISSUER, audience: ISSUER, subject: offer.code, expiresInSeconds: 300, signer: { method: 'jwk', alg: 'ES256', publicJwk: jwks.keys[0], kid: 'at' }, dpop: { jwk: verified.dpop.jwk } });
    });
    const nonce = await timed('nonce', async () => {
      const cNonce = token();
      nonces.set(cNonce, Date.now() + 300_000);
      return vci.createNonceResponse({ cNonce }).c_nonce;
    });
    const holder = wallet.newKey();
    const body = { credential_configuration_id: 'badge', proofs: { jwt: [wallet.keyProof(holder, { aud: ISSUER, nonce })] } };
    const accessToken = tokenResponse.access_token;
    const credDpop = wallet.dpopProof(dpopKey, { htm: 'POST', htu: credentialIssuer.credential_endpoint, accessToken });
    const response = await timed('credential', async () => {
      const request = { method: 'POST', url: credentialIssuer.credential_endpoint, headers: new Headers({ authorization: `DPoP ${accessToken}`, dpop: credDpop, 'content-type': 'application/json' }) };
      await rs.verifyResourceRequest({ request, resourceServer: ISSUER, authorizationServers: [asMetadata] });
      const parsed = vci.parseCredentialRequest({ issuerMetadata, credentialRequest: body });
      const proof = parsed.proofs.jwt[0];
      const decoded = JSON.parse(Buffer.from(proof.split('.')[1], 'base64url').toString('utf8'));
      const expiresAt = nonces.get(decoded.nonce);
      if (!expiresAt) throw new Error('unknown c_nonce');
      nonces.delete(decoded.nonce);
      const verified = await vci.verifyCredentialRequestJwtProof({ issuerMetadata, jwt: proof, expectedNonce: decoded.nonce, nonceExpiresAt: new Date(expiresAt) });
      const iat = Math.floor(Date.now() / 1000);
      const credential = await sdjwt.issue(
        { iss: ISSUER, vct: `${ISSUER}/vct/badge`, iat, exp: iat + 365 * 86_400, cnf: { jwk: verified.signer.publicJwk }, ...claims },
        { _sd: Object.keys(claims) },
        { header: { typ: 'dc+sd-jwt', x5c: issuerSigner.x5c } },
      );
      return vci.createCredentialResponse({ credentialRequest: parsed, credentials: [{ credential }] });
    });
    if (typeof response.credentials?.[0]?.credential !== 'string') throw new Error('library bench: no credential');
  };
}

/**
 * The OID4VP flow: create (an x5c-signed request object for x509_san_dns, an ephemeral ECDH-ES
 * key) → fetch the request object → the direct_post.jwt response (decrypt, SD-JWT VC issuer
 * signature, key binding's aud/nonce/sd_hash, DCQL evaluated) → read the result.
 * `held(w)` gives wallet w's credential and holder key; `trustedIssuerJwk` is the issuer's key.
 */
function oid4vpLibrary({ requestSigner, query, held, trustedIssuerJwk }) {
  const clientId = `x509_san_dns:${VERIFIER_HOST}`;
  const requests = new Map();
  const dcql = DcqlQuery.parse(query);
  DcqlQuery.validate(dcql);
  const sdjwt = new SDJwtVcInstance({
    hasher: wallet.hasher,
    verifier: async (data, sig) => wallet.verifyJws(`${data}.${sig}`, trustedIssuerJwk),
    kbVerifier: async (data, sig, payload) => wallet.verifyJws(`${data}.${sig}`, payload.cnf.jwk),
  });
  const reqKey = createPrivateKey(requestSigner.privateKeyPem);

  return async (w, record) => {
    const timed = async (step, fn) => {
      const t0 = performance.now();
      const out = await fn();
      record(step, performance.now() - t0);
      return out;
    };
    const id = await timed('create', async () => {
      const { generateKeyPairSync } = require('node:crypto');
      const enc = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const kid = randomUUID();
      const encPublic = { ...enc.publicKey.export({ format: 'jwk' }), kid, use: 'enc', alg: 'ECDH-ES' };
      const rid = randomUUID();
      const payload = {
        response_type: 'vp_token',
        client_id: clientId,
        response_uri: `https://${VERIFIER_HOST}/response/${rid}`,
        response_mode: 'direct_post.jwt',
        nonce: token(),
        state: token(),
        dcql_query: query,
        client_metadata: { vp_formats_supported: { 'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] } }, jwks: { keys: [encPublic] }, encrypted_response_enc_values_supported: ['A128GCM', 'A256GCM'] },
      };
      const iat = Math.floor(Date.now() / 1000);
      const requestObject = wallet.jws({ alg: 'ES256', typ: 'oauth-authz-req+jwt', x5c: requestSigner.x5c }, { iat, exp: iat + 300, aud: 'https://self-issued.me/v2', ...payload }, reqKey);
      requests.set(rid, { payload, requestObject, encPrivate: enc.privateKey, encPublic, result: null });
      return rid;
    });
    const requestObject = await timed('request-object', async () => requests.get(id).requestObject);
    const request = wallet.readRequestObject(requestObject);
    const { compact, holderKey } = held(w);
    const presentation = await wallet.presentSdJwt(compact, query.credentials[0], holderKey, { aud: request.client_id, nonce: request.nonce });
    const jwe = await wallet.encryptResponse({ vp_token: { [query.credentials[0].id]: [presentation] }, state: request.state }, request);
    await timed('response', async () => {
      const r = requests.get(id);
      if (!r || r.result) throw new Error('unknown or answered request');
      const decryptJwe = async (data) => {
        const key = await importJWK({ ...r.encPrivate.export({ format: 'jwk' }), alg: 'ECDH-ES' }, 'ECDH-ES');
        const { plaintext } = await compactDecrypt(data, key, { keyManagementAlgorithms: ['ECDH-ES'], contentEncryptionAlgorithms: ['A128GCM', 'A256GCM'] });
        return { decrypted: true, decryptionJwk: r.encPublic, payload: new TextDecoder().decode(plaintext) };
      };
      const parsed = await parseOpenid4vpAuthorizationResponse({ authorizationResponse: { response: jwe }, authorizationRequestPayload: r.payload, callbacks: { decryptJwe, verifyJwt: async () => ({ verified: false }) } });
      if (parsed.type !== 'dcql') throw new Error('a DCQL vp_token is expected');
      const presented = {};
      for (const [qid, list] of Object.entries(parsed.dcql.presentations)) {
        const v = await sdjwt.verify(list[0], { keyBindingNonce: r.payload.nonce, requiredClaimKeys: [] });
        if (v.kb?.payload.aud !== r.payload.client_id) throw new Error('key binding for another audience');
        presented[qid] = [{ credential_format: 'dc+sd-jwt', vct: v.payload.vct, claims: v.payload, cryptographic_holder_binding: true }];
      }
      if (!DcqlPresentationResult.fromDcqlPresentation(presented, { dcqlQuery: dcql }).can_be_satisfied) throw new Error('DCQL query not satisfied');
      r.result = { verified: true, claims: presented };
    });
    const result = await timed('result', async () => requests.get(id).result);
    if (!result?.verified) throw new Error('library bench: not verified');
    requests.delete(id);
  };
}

module.exports = { oid4vciLibrary, oid4vpLibrary, ISSUER, VERIFIER_HOST };
