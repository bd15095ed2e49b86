import type { JsonWebKey } from 'node:crypto';
import { AppError, isAppError } from '../errors';
import type { DidResolver } from '../vc/ports';
import { methodKey, UnusableMethodError } from '../vc/jwt/method-key';
import { validateChain } from './chain';
import { type Der, x5cToDer } from './pem';
import { sanNamesIssuer, type SubjectAltNames } from './san';

export interface IssuerTrustInput {
  /** The `x5c` header: standard base64 DER, leaf first. */
  readonly x5c?: readonly string[];
  /** The credential's `iss` (an HTTPS URL with x5c, a DID with a DID URL `kid`). */
  readonly iss?: string;
  /** The header's `kid`: with DIDs, the DID URL of the verification method. */
  readonly kid?: string;
  /** The time the certificates must be valid at (the verification's `now`); the trust's clock when absent. */
  readonly now?: Date;
}

export interface TrustedIssuerKey {
  readonly publicJwk: JsonWebKey;
  readonly trustedBy: 'x5c' | 'did';
  /** With x5c: what the leaf certificate says (for client identifier checks and the verifier's report). */
  readonly certificate?: { readonly subject: string; readonly san: SubjectAltNames; readonly x509Hash: string };
  /** With a DID: the verification method the key came from. */
  readonly verificationMethod?: string;
}

/**
 * Issuer trust of the verification side (shared contract of issue 21): the issuer's public key,
 * or an AppError (VERIFICATION_FAILED when not trusted, INVALID_INPUT when the input is malformed).
 */
export type IssuerTrust = (input: IssuerTrustInput) => Promise<TrustedIssuerKey>;

const untrusted = (message: string): AppError => new AppError('VERIFICATION_FAILED', message);

export interface X5cTrustOptions {
  /** Current time when the input names none. */
  readonly now?: () => Date;
  /**
   * When an `iss` is given, the leaf must name it in its SAN (a URI equal to it, or its host as a
   * dNSName). Default true: without it any certificate from a trusted CA could speak for any issuer.
   */
  readonly bindIss?: boolean;
}

/**
 * Trust by certificate chain: `x5c` must validate (see validateChain) to one of `anchors` (DER, or
 * a function giving them, e.g. the service's current anchors) and, when `iss` is given, the leaf's
 * SAN must name it.
 */
export function x5cTrust(anchors: readonly Der[] | (() => Promise<readonly Der[]>), options: X5cTrustOptions = {}): IssuerTrust {
  const clock = options.now ?? (() => new Date());
  return async (input) => {
    if (!Array.isArray(input.x5c) || input.x5c.length === 0) throw untrusted('the issuer sent no x5c certificate chain');
    const chain = input.x5c.map(x5cToDer);
    const anchorList = typeof anchors === 'function' ? await anchors() : anchors;
    const valid = await validateChain(chain, anchorList, input.now ?? clock());
    if (input.iss !== undefined && options.bindIss !== false && !sanNamesIssuer(valid.san, input.iss)) {
      throw untrusted('the leaf certificate does not name the issuer (iss) in its subjectAltName');
    }
    return { publicJwk: valid.publicJwk, trustedBy: 'x5c', certificate: { subject: valid.leaf.subject, san: valid.san, x509Hash: valid.x509Hash } };
  };
}

const didOf = (didUrl: string): string => didUrl.split('#')[0]!.split('?')[0]!;

/**
 * Trust by DID: `kid` is a DID URL of a verification method (or `#fragment` relative to an `iss`
 * DID), the method is controlled by the issuer DID and listed under assertionMethod, and its key
 * (JWK or Multikey) is read from the resolved document. Resolution that finds nothing is
 * VERIFICATION_FAILED; an unreachable resolver (SERVICE_UNAVAILABLE) is passed on for a retry.
 */
export function didTrust(resolver: DidResolver): IssuerTrust {
  return async (input) => {
    const iss = input.iss;
    if (input.kid === undefined || input.kid === '') throw untrusted('a DID issuer must name its key with a kid (a DID URL)');
    const kid = input.kid.startsWith('#') && iss !== undefined ? `${iss}${input.kid}` : input.kid;
    if (!kid.startsWith('did:') || !kid.includes('#')) throw untrusted('the kid is not a DID URL of a verification method');
    const did = didOf(kid);
    if (iss !== undefined && iss !== did) throw untrusted('the kid is not a key of the issuer (iss)');
    let found;
    try {
      found = await resolver.dereferenceMethod(kid);
    } catch (e) {
      if (isAppError(e) && e.code === 'SERVICE_UNAVAILABLE') throw e;
      throw untrusted(`the issuer key could not be resolved${isAppError(e) ? `: ${e.message}` : ''}`);
    }
    const { method, controllerDocument } = found;
    if (method.id !== kid || method.controller !== did || controllerDocument.id !== did) throw untrusted('the key is not controlled by the issuer DID');
    const listed = (controllerDocument.assertionMethod ?? []).some((entry) => {
      const id = typeof entry === 'string' ? entry : entry.id;
      return id === kid || (id.startsWith('#') && `${did}${id}` === kid);
    });
    if (!listed) throw untrusted('the key is not listed under assertionMethod of the issuer DID');
    try {
      return { publicJwk: methodKey(method).key.export({ format: 'jwk' }), trustedBy: 'did', verificationMethod: kid };
    } catch (e) {
      if (e instanceof UnusableMethodError) throw untrusted(e.message);
      throw e;
    }
  };
}

/** x5c when the issuer sent a chain, the DID otherwise: what a verifier accepting both configures. */
export function eitherTrust(byCertificate: IssuerTrust, byDid: IssuerTrust): IssuerTrust {
  return (input) => (Array.isArray(input.x5c) && input.x5c.length > 0 ? byCertificate(input) : byDid(input));
}
