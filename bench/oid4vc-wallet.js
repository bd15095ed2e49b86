'use strict';
/**
 * The wallet side of the wallet benchmark, shared by the HTTP run and the in-process library run
 * so that both sides pay the same holder cost: P-256 keys, DPoP proofs (RFC 9449), OID4VCI key
 * proofs (openid4vci-proof+jwt), an SD-JWT VC presentation with a key-binding JWT (@sd-jwt) and
 * the ECDH-ES encrypted direct_post.jwt response (jose). node:crypto only; no Credgate code.
 */
const { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, randomUUID, sign: nodeSign, verify: nodeVerify, X509Certificate } = require('node:crypto');
const { SDJwtVcInstance } = require('@sd-jwt/sd-jwt-vc');
const { CompactEncrypt, importJWK } = require('jose');

const b64u = (b) => Buffer.from(b).toString('base64url');
const sha = (alg) => ({ 'sha-256': 'sha256', 'sha-384': 'sha384', 'sha-512': 'sha512' })[alg] ?? 'sha256';
const hasher = (data, alg) => createHash(sha(alg)).update(typeof data === 'string' ? Buffer.from(data) : data).digest();

/** A P-256 key: the private KeyObject stays here, the public JWK goes into headers. */
function newKey() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  return { privateKey, jwk: { kty, crv, x, y } };
}

/** A compact ES256 JWS. */
function jws(header, payload, privateKey) {
  const input = `${b64u(JSON.stringify(header))}.${b64u(JSON.stringify(payload))}`;
  return `${input}.${b64u(nodeSign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }))}`;
}

function verifyJws(compact, publicJwk) {
  const [h, p, s] = compact.split('.');
  return nodeVerify('sha256', Buffer.from(`${h}.${p}`), { key: createPublicKey({ key: publicJwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'));
}

const decodePart = (part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

function dpopProof(key, { htm, htu, accessToken, nonce }) {
  const payload = { htm, htu, iat: Math.floor(Date.now() / 1000), jti: randomUUID(), ...(nonce ? { nonce } : {}), ...(accessToken ? { ath: b64u(createHash('sha256').update(accessToken).digest()) } : {}) };
  return jws({ typ: 'dpop+jwt', alg: 'ES256', jwk: key.jwk }, payload, key.privateKey);
}

function keyProof(key, { aud, nonce }) {
  return jws({ typ: 'openid4vci-proof+jwt', alg: 'ES256', jwk: key.jwk }, { aud, iat: Math.floor(Date.now() / 1000), ...(nonce ? { nonce } : {}) }, key.privateKey);
}

/**
 * A request object as a wallet reads it: the x5c leaf's key must have signed it (chain and SAN
 * checks are the wallet's trust decision and the same on both sides, so they are left out here).
 */
function readRequestObject(compact) {
  const [h, p] = compact.split('.');
  const header = decodePart(h);
  const leaf = new X509Certificate(Buffer.from(header.x5c[0], 'base64'));
  if (!verifyJws(compact, leaf.publicKey.export({ format: 'jwk' }))) throw new Error('request object signature does not verify');
  return decodePart(p);
}

/** The SD-JWT VC with only the claims of `query` disclosed, and a KB-JWT to `aud` over `nonce`. */
async function presentSdJwt(compact, query, holderKey, { aud, nonce }) {
  const sdjwt = new SDJwtVcInstance({
    hasher,
    saltGenerator: () => b64u(randomBytes(16)),
    kbSigner: async (data) => b64u(nodeSign('sha256', Buffer.from(data), { key: holderKey.privateKey, dsaEncoding: 'ieee-p1363' })),
    kbSignAlg: 'ES256',
  });
  const frame = Object.fromEntries((query.claims ?? []).map((c) => [c.path[0], true]));
  return sdjwt.present(compact, frame, { kb: { payload: { iat: Math.floor(Date.now() / 1000), aud, nonce } } });
}

/** direct_post.jwt: the response parameters as an ECDH-ES JWE to the request's encryption key. */
async function encryptResponse(params, request) {
  const encJwk = request.client_metadata.jwks.keys[0];
  const enc = request.client_metadata.encrypted_response_enc_values_supported?.[0] ?? 'A128GCM';
  const key = await importJWK({ ...encJwk, alg: 'ECDH-ES' }, 'ECDH-ES');
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(params))).setProtectedHeader({ alg: 'ECDH-ES', enc, ...(encJwk.kid ? { kid: encJwk.kid } : {}) }).encrypt(key);
}

/** The issuer's signer for the credentials presented in the OID4VP flow: a PKCS#8 key and its x5c. */
function pemSigner(privateKeyPem, x5c) {
  const key = createPrivateKey(privateKeyPem);
  const { kty, crv, x, y } = createPublicKey(key).export({ format: 'jwk' });
  return { alg: 'ES256', publicJwk: { kty, crv, x, y }, x5c, sign: async (data) => new Uint8Array(nodeSign('sha256', Buffer.from(data), { key, dsaEncoding: 'ieee-p1363' })) };
}

module.exports = { b64u, hasher, newKey, jws, verifyJws, decodePart, dpopProof, keyProof, readRequestObject, presentSdJwt, encryptResponse, pemSigner };
