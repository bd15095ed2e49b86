import type { JsonWebKey } from 'node:crypto';
import type { Oid4vciSource, Oid4vciSupport } from '../format';

const VCDM2 = 'https://www.w3.org/ns/credentials/v2';

/** `FooBar` of a template or schema name: a term the VCDM 2.0 context's @vocab maps. */
export function typeNameOf(source: Oid4vciSource): string {
  const words = source.name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const pascal = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('') || 'Credgate';
  return /Credential$/.test(pascal) ? pascal : `${pascal}Credential`;
}

/** A holder key as a DID (did:jwk), so the credential subject is bound to the key the wallet proved. */
export function didJwkOf(jwk: JsonWebKey): string {
  const { kty, crv, x, y } = jwk;
  return `did:jwk:${Buffer.from(JSON.stringify({ crv, kty, x, y }), 'utf8').toString('base64url')}`;
}

/**
 * `ldp_vc` over OpenID4VCI: a VCDM 2.0 credential secured by the tenant's default VC-API issuer
 * instance (whichever Data Integrity suite it signs with), subject bound to the holder's key as
 * did:jwk. One object shared by every Data Integrity entry: the suite is the issuer instance's,
 * not the wallet's, choice.
 */
export const ldpVcOid4vci: Oid4vciSupport = {
  describe: (source) => ({ credential_definition: { '@context': [VCDM2], type: ['VerifiableCredential', typeNameOf(source)] } }),
  async issue({ tenantId, issuer: issuerUrl, source, claims, holderJwk }, ports) {
    const issuer = await ports.w3c.defaultIssuerDid(tenantId);
    const credential = {
      // The subject claims are the operator's own terms: an issuer-scoped vocabulary maps them,
      // so JSON-LD safe mode sees every property defined.
      '@context': [VCDM2, { '@vocab': `${issuerUrl}/vocab#` }],
      type: ['VerifiableCredential', typeNameOf(source)],
      issuer,
      credentialSubject: { ...claims, id: didJwkOf(holderJwk) },
    };
    const vc = await ports.w3c.issue(tenantId, credential);
    return { credential: vc, ref: { format: 'ldp_vc', issuer } };
  },
};
