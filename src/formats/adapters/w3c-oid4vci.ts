import type { JsonWebKey } from 'node:crypto';
import { AppError } from '../../errors';
import { openEnvelope } from '../../vc/jwt/envelope';
import type { Oid4vciSource, Oid4vciSupport } from '../format';

const VCDM2 = 'https://www.w3.org/ns/credentials/v2';
const VCDM1 = 'https://www.w3.org/2018/credentials/v1';

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
    const issuer = await ports.w3c.issuerDid(tenantId);
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

/**
 * `jwt_vc_json` over OpenID4VCI 1.0 (Appendix A.1.1, "not using JSON-LD"): a VCDM 1.1 credential
 * as a JWT with the `vc` claim, signed by the tenant's VC-API issuer instance of `suite` (vc+jwt:
 * its did:key is `iss`, so any verifier that resolves did:key checks it, our VC-API included),
 * `sub` the holder's key as did:jwk. The wallet receives the compact JWT, not the VC-API envelope.
 */
export function jwtVcJsonOid4vci(suite: string): Oid4vciSupport {
  return {
    describe: (source) => ({ credential_definition: { type: ['VerifiableCredential', typeNameOf(source)] } }),
    async issue({ tenantId, source, claims, holderJwk }, ports) {
      const issuer = await ports.w3c.issuerDid(tenantId, suite);
      const credential = {
        '@context': [VCDM1],
        type: ['VerifiableCredential', typeNameOf(source)],
        issuer,
        issuanceDate: ports.now().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        credentialSubject: { ...claims, id: didJwkOf(holderJwk) },
      };
      const envelope = await ports.w3c.issue(tenantId, credential, suite);
      const opened = openEnvelope(envelope, 'credential');
      if ('error' in opened) throw new AppError('INTERNAL', `the ${suite} issuer answered no JWT: ${opened.error}`);
      return { credential: opened.jwt, ref: { format: 'jwt_vc_json', issuer } };
    },
  };
}
