// An independent OID4VP 1.0 wallet for the verifier's process tests: the OpenWallet Foundation's
// oid4vc-ts client (Openid4vpClient) resolves the request, @sd-jwt/sd-jwt-vc presents the held
// SD-JWT VC with a key-binding JWT, jose encrypts direct_post.jwt responses. It shares no code with
// Credgate. It runs as its own process: `node oid4vp-presenter.mjs <input.json>`, and prints one JSON
// line: { resolved, submissions: [{ status, body }] } or { error }.
//
// `mode` makes it misbehave the way the OpenID Foundation's OID4VP conformance plan's negative
// tests do (a wallet that discloses too much, addresses its KB-JWT to someone else, ...).
// @peculiar/x509 (through tsyringe) needs the Reflect metadata API before it loads.
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign as nodeSign, verify as nodeVerify, X509Certificate } from 'node:crypto';
import { Openid4vpClient } from '@openid4vc/openid4vp';
import { setGlobalConfig } from '@openid4vc/utils';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { createRequire } from 'node:module';
import { CompactEncrypt, calculateJwkThumbprint, importJWK } from 'jose';
import * as x509 from '@peculiar/x509';

// Loopback http:// URLs of the test service: process-wide, and this process is only a test wallet.
setGlobalConfig({ allowInsecureUrls: true });

const input = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const mode = input.mode ?? 'honest';
const b64u = (b) => Buffer.from(b).toString('base64url');
const sha = (alg) => ({ 'sha-256': 'sha256', 'sha-384': 'sha384', 'sha-512': 'sha512' })[alg] ?? 'sha256';

/** The wallet trusts request objects whose x5c chains to one of its anchors (PEM). */
const anchors = (input.walletAnchorsPem ?? []).map((pem) => new X509Certificate(pem));

function verifyChain(x5c) {
  const certs = x5c.map((b64) => new X509Certificate(Buffer.from(b64, 'base64')));
  for (let i = 0; i < certs.length - 1; i++) if (!certs[i].verify(certs[i + 1].publicKey)) return false;
  const top = certs[certs.length - 1];
  return anchors.some((a) => top.verify(a.publicKey) || top.raw.equals(a.raw));
}

function verifyEs256(compact, jwk) {
  const [h, p, s] = compact.split('.');
  return nodeVerify('sha256', Buffer.from(`${h}.${p}`), { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'));
}

const callbacks = {
  hash: (data, alg) => createHash(sha(alg)).update(data).digest(),
  fetch: (...args) => fetch(...args),
  getX509CertificateMetadata: (certificate) => {
    const cert = new x509.X509Certificate(Buffer.from(certificate, 'base64'));
    const ext = cert.getExtension(x509.SubjectAlternativeNameExtension);
    const names = ext ? ext.names.items : [];
    return { sanDnsNames: names.filter((n) => n.type === 'dns').map((n) => n.value), sanUriNames: names.filter((n) => n.type === 'url').map((n) => n.value) };
  },
  verifyJwt: async (signer, jwt) => {
    if (signer.method !== 'x5c') return { verified: false };
    if (!verifyChain(signer.x5c)) return { verified: false };
    const leaf = new X509Certificate(Buffer.from(signer.x5c[0], 'base64'));
    const jwk = leaf.publicKey.export({ format: 'jwk' });
    return verifyEs256(jwt.compact, jwk) ? { verified: true, signerJwk: jwk } : { verified: false };
  },
  signJwt: async () => {
    throw new Error('this wallet does not sign responses');
  },
  encryptJwe: async (encryptor, data) => {
    const key = await importJWK(encryptor.publicJwk, 'ECDH-ES');
    // OID4VP 1.0 §8.3 uses no apu/apv (the draft-era mdoc nonces); the library passes them anyway.
    const header = { alg: 'ECDH-ES', enc: encryptor.enc, kid: encryptor.publicJwk.kid };
    const jwe = await new CompactEncrypt(new TextEncoder().encode(data)).setProtectedHeader(header).encrypt(key);
    return { jwe, encryptionJwk: encryptor.publicJwk };
  },
  decryptJwe: async () => ({ decrypted: false }),
};

const client = new Openid4vpClient({ callbacks });

function signerOf(privateJwk) {
  const key = createPrivateKey({ key: privateJwk, format: 'jwk' });
  return async (data) => b64u(nodeSign('sha256', Buffer.from(data), { key, dsaEncoding: 'ieee-p1363' }));
}

/** A presentation frame disclosing the requested claim paths (or everything, in mode extra-claim). */
function frameFor(query, claims) {
  const frame = {};
  const paths = mode === 'extra-claim' ? Object.keys(claims).map((k) => [k]) : (query.claims ?? []).map((c) => c.path);
  for (const path of paths) {
    let node = frame;
    path.forEach((seg, i) => {
      const key = seg === null ? 0 : seg;
      if (i === path.length - 1) node[key] = true;
      else node = node[key] ??= {};
    });
  }
  return frame;
}

async function present(query, resolved) {
  const held = input.credentials[query.id];
  if (!held) throw new Error(`no credential for ${query.id}`);
  if (query.format === 'mso_mdoc') return presentMdoc(query, held, resolved);
  const holderKey = mode === 'broken-kb' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }) : input.holderPrivateJwk;
  const sdjwt = new SDJwtVcInstance({
    hasher: (data, alg) => createHash(sha(alg)).update(typeof data === 'string' ? Buffer.from(data) : data).digest(),
    saltGenerator: () => b64u(randomBytes(16)),
    kbSigner: signerOf(holderKey),
    kbSignAlg: 'ES256',
  });
  const claims = await sdjwt.getClaims(held.compact);
  const aud = mode === 'wrong-aud' ? 'x509_san_dns:evil.example' : resolved.authorizationRequestPayload.client_id;
  let presented = await sdjwt.present(held.compact, frameFor(query, claims), { kb: { payload: { iat: Math.floor(Date.now() / 1000), aud, nonce: resolved.authorizationRequestPayload.nonce } } });
  if (mode === 'tamper-disclosure') {
    // Change the value inside the first disclosure and re-encode it: its digest no longer matches.
    const parts = presented.split('~');
    const d = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    d[d.length - 1] = `${d[d.length - 1]}-tampered`;
    parts[1] = b64u(JSON.stringify(d));
    presented = parts.join('~');
  }
  return presented;
}

/**
 * The holder side of mso_mdoc: the DeviceResponse is built with the holder helper of Credgate's
 * compiled mdoc module (createDeviceResponse: selects the requested elements, signs
 * DeviceAuthentication over OID4VP 1.0 Annex B's SessionTranscript); the protocol around it stays
 * oid4vc-ts's. No wallet library here builds OID4VP 1.0 handovers yet.
 */
async function presentMdoc(query, held, resolved) {
  const { createDeviceResponse } = createRequire(import.meta.url)('../../dist/formats/mdoc/index.js');
  const request = resolved.authorizationRequestPayload;
  const wanted = {};
  for (const c of query.claims ?? []) (wanted[c.path[0]] ??= []).push(c.path[1]);
  if (mode === 'extra-claim') for (const ns of Object.keys(wanted)) wanted[ns].push(...(input.extraElements ?? []));
  const encJwk = request.response_mode === 'direct_post.jwt' ? request.client_metadata?.jwks?.keys?.[0] : undefined;
  const key = createPrivateKey({ key: mode === 'broken-kb' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }) : input.holderPrivateJwk, format: 'jwk' });
  const bytes = await createDeviceResponse({
    issuerSigned: held.issuerSigned,
    holder: { sign: async (data) => new Uint8Array(nodeSign('sha256', Buffer.from(data), { key, dsaEncoding: 'ieee-p1363' })) },
    request: wanted,
    clientId: mode === 'wrong-aud' ? 'x509_san_dns:evil.example' : request.client_id,
    responseUri: request.response_uri,
    nonce: request.nonce,
    jwkThumbprint: encJwk ? await calculateJwkThumbprint(encJwk, 'sha256') : null,
  });
  return Buffer.from(bytes).toString('base64url');
}

async function main() {
  let params;
  if (mode === 'forged-request') {
    // A response to a request the verifier never made: our own state and nonce, posted to its endpoint.
    params = { response_type: 'vp_token', client_id: `redirect_uri:${input.responseUri}`, response_uri: input.responseUri, response_mode: 'direct_post', nonce: b64u(randomBytes(16)), state: b64u(randomBytes(16)), dcql_query: input.forgedQuery };
  } else {
    params = client.parseOpenid4vpAuthorizationRequest({ authorizationRequest: input.authorizationRequest }).params;
  }
  let resolved;
  try {
    resolved = mode === 'forged-request' ? { authorizationRequestPayload: params } : await client.resolveOpenId4vpAuthorizationRequest({ authorizationRequestPayload: params });
  } catch (e) {
    return { error: 'request_refused', message: e instanceof Error ? e.message : String(e) };
  }
  const request = resolved.authorizationRequestPayload;
  const vpToken = {};
  for (const q of request.dcql_query.credentials) vpToken[q.id] = [await present(q, resolved)];
  const encrypted = request.response_mode === 'direct_post.jwt' && mode !== 'unencrypted';
  let body;
  if (encrypted) {
    const created = await client.createOpenid4vpAuthorizationResponse({
      authorizationRequestPayload: request,
      authorizationResponsePayload: { vp_token: vpToken },
      jarm: {
        encryption: { nonce: request.nonce },
        serverMetadata: { authorization_encryption_alg_values_supported: ['ECDH-ES'], authorization_encryption_enc_values_supported: ['A128GCM', 'A256GCM'] },
      },
    });
    body = new URLSearchParams({ response: created.jarm.responseJwt });
  } else {
    body = new URLSearchParams({ vp_token: JSON.stringify(vpToken), ...(request.state ? { state: request.state } : {}) });
  }
  const submissions = [];
  const times = mode === 'replay' ? 2 : 1;
  for (let i = 0; i < times; i++) {
    const res = await fetch(request.response_uri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    submissions.push({ status: res.status, body: await res.json().catch(() => null) });
  }
  return { resolved: { client_id: request.client_id, response_mode: request.response_mode, nonce: request.nonce, signed: Boolean(resolved.jar) }, submissions };
}

main().then(
  (out) => process.stdout.write(`${JSON.stringify(out)}\n`),
  (e) => {
    process.stdout.write(`${JSON.stringify({ error: 'wallet_failed', message: e instanceof Error ? e.message : String(e) })}\n`);
    process.exitCode = 1;
  },
);
