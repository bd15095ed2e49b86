// A second independent OID4VCI wallet: Sphereon's @sphereon/oid4vci-client (OpenID4VCIClient),
// which shares no code with Credgate nor with oid4vc-ts. It receives an SD-JWT VC through the
// pre-authorized code flow with a tx_code and DPoP. Run as its own process:
// `node oid4vci-sphereon.mjs <input.json>`; prints one JSON line { credential, holderJwk } or { error, message }.
import { readFileSync } from 'node:fs';
import { generateKeyPairSync, sign as nodeSign } from 'node:crypto';
import { OpenID4VCIClient } from '@sphereon/oid4vci-client';

const input = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const b64u = (b) => Buffer.from(b).toString('base64url');

function newKey() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { x, y } = publicKey.export({ format: 'jwk' });
  return { privateKey, jwk: { kty: 'EC', crv: 'P-256', x, y } };
}
function signCompact(header, payload, privateKey) {
  const data = `${b64u(JSON.stringify(header))}.${b64u(JSON.stringify(payload))}`;
  return `${data}.${b64u(nodeSign('sha256', Buffer.from(data), { key: privateKey, dsaEncoding: 'ieee-p1363' }))}`;
}

async function main() {
  const holder = newKey();
  const dpopKey = newKey();
  const createDPoPOpts = {
    jwtIssuer: { alg: 'ES256', jwk: dpopKey.jwk },
    jwtPayloadProps: {},
    // Sphereon sends DPoP only when told which algorithms the server takes (its metadata says ES256).
    dPoPSigningAlgValuesSupported: ['ES256'],
    createJwtCallback: async (_issuer, jwt) => signCompact(jwt.header, jwt.payload, dpopKey.privateKey),
  };
  const client = await OpenID4VCIClient.fromURI({ uri: input.offerUri, retrieveServerMetadata: true, resolveOfferUri: true });
  const token = await client.acquireAccessToken({ pin: input.txCode, createDPoPOpts });
  const response = await client.acquireCredentials({
    credentialConfigurationId: input.configurationId,
    format: 'dc+sd-jwt',
    alg: 'ES256',
    jwk: holder.jwk,
    proofCallbacks: { signCallback: async (jwt) => signCompact({ ...jwt.header, jwk: holder.jwk, kid: undefined }, jwt.payload, holder.privateKey) },
    createDPoPOpts,
  });
  const credential = response.credentials?.[0]?.credential ?? response.credential;
  return { tokenType: token.token_type, credential, holderJwk: holder.jwk };
}

main().then(
  (out) => process.stdout.write(`${JSON.stringify(out)}\n`),
  (e) => process.stdout.write(`${JSON.stringify({ error: 'wallet_failed', message: e?.stack ?? String(e) })}\n`),
);
