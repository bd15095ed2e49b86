import type { JsonWebKey } from 'node:crypto';
import type { Actor } from '../../../domain/tenancy/actor';
import type { CredentialSource, Oid4vciCredentialFormat } from '../configurations';

/** What the W3C format needs of the VC-API services: the tenant's default issuer instance, and issuance through it. */
export interface W3cIssuance {
  defaultIssuerDid(actor: Actor): Promise<string>;
  issue(actor: Actor, credential: Record<string, unknown>): Promise<Record<string, unknown>>;
}

const VCDM2 = 'https://www.w3.org/ns/credentials/v2';

/** `FooBar` of a template or schema name: a term the VCDM 2.0 context's @vocab maps. */
export function typeNameOf(source: CredentialSource): string {
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
 * `ldp_vc`: a VCDM 2.0 credential secured by the tenant's default VC-API issuer instance (its Data
 * Integrity suite), subject bound to the holder's key as did:jwk. The tenant acts as issuer for
 * the offer its operator created, so the actor is the tenant's own.
 */
export function ldpVcFormat(w3c: W3cIssuance): Oid4vciCredentialFormat {
  return {
    format: 'ldp_vc',
    describe: (source) => ({ credential_definition: { '@context': [VCDM2], type: ['VerifiableCredential', typeNameOf(source)] } }),
    async issue({ tenantId, issuer: issuerUrl, source, claims, holderJwk }) {
      const actor = issuerActor(tenantId);
      const issuer = await w3c.defaultIssuerDid(actor);
      const credential = {
        // The subject claims are the operator's own terms: an issuer-scoped vocabulary maps them,
        // so JSON-LD safe mode sees every property defined.
        '@context': [VCDM2, { '@vocab': `${issuerUrl}/vocab#` }],
        type: ['VerifiableCredential', typeNameOf(source)],
        issuer,
        credentialSubject: { ...claims, id: didJwkOf(holderJwk) },
      };
      const vc = await w3c.issue(actor, credential);
      return { credential: vc, ref: { format: 'ldp_vc', issuer } };
    },
  };
}

/** The tenant itself, issuing what its operator offered (never an API key's authority: no key id). */
const issuerActor = (tenantId: string): Actor => ({ tenantId, tenantSlug: '', apiKeyId: 'oid4vci-issuer', scopes: ['issuer'] });
