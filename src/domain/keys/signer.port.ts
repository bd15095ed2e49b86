import type { JsonWebKey } from 'node:crypto';
import type { IssuerKeyType } from '../vc-issuers';

/**
 * The one signer abstraction of the service (issue 20): every signature Credgate makes with a key it
 * holds goes through an object of this shape, whoever built it (key custody, the OID4VC key service,
 * a VC-API issuer instance, a test). The private key never leaves that object; callers see the
 * algorithm, the key's identifier and `sign`.
 *
 * Two identities exist because two families of standards name keys differently, and the names stay
 * those the standards use (JOSE/COSE `alg` + `kid`/`x5c`; Data Integrity key type + verification
 * method): renaming them would change every signer's builder for no gain in safety.
 *
 * Declared here, on the domain floor, so the floors above (src/vc, src/x509, src/formats, src/oid4vc)
 * all import it downwards; the format folders keep their own names as type aliases of these.
 */
export interface Signer {
  /**
   * The raw signature of `data`: Ed25519 64 bytes (RFC 8032); ECDSA in IEEE P1363 `r || s` form
   * (64 bytes P-256 and secp256k1, 96 bytes P-384), as JOSE, COSE and Data Integrity all carry it.
   */
  sign(data: Uint8Array): Promise<Uint8Array>;
}

/**
 * An ES256 (P-256) key as JOSE and COSE name it: the key every OID4VC format (SD-JWT VC, mdoc, Token
 * Status List, OID4VP request objects) signs with.
 */
export interface Es256Signer extends Signer {
  readonly alg: 'ES256';
  readonly publicJwk: JsonWebKey;
  /** Standard base64 DER certificates, leaf first (the JOSE/COSE `x5c` header / COSE x5chain). */
  readonly x5c?: string[];
  /** Key id for the `kid` header when there is no chain (e.g. a DID URL). */
  readonly kid?: string;
}

/**
 * A key as Data Integrity and VC-JWT name it: its key type and the absolute DID URL of its
 * verification method (e.g. `did:key:z6Mk…#z6Mk…`). VC-API issuer instances sign with these.
 */
export interface ProofSigner extends Signer {
  readonly keyType: IssuerKeyType;
  readonly verificationMethod: string;
  /**
   * Bls12381G2 keys only: BBS signs a header and a list of messages in the bbs-2023 worker thread
   * (src/formats/bbs-2023), so the key travels to that in-process worker for the one call.
   */
  readonly bbsKey?: { readonly secretKey: Uint8Array; readonly publicKey: Uint8Array };
}
