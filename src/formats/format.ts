/**
 * The one interface every credential format implements (habit 13): the seed's Family A and
 * Family B styles, the Data Integrity suites, JWT VCs, SD-JWT VC and mdoc. Transports, the
 * VC-API and the OpenID4VC endpoints look a format up in the registry (registry.ts) and call
 * these members; none of them branches on a format's name, suite or shape.
 *
 * Modelled on Veramo's credential providers (a provider says whether it can handle a document,
 * then issues or verifies it), Credo's CredentialFormatService and Digital Bazaar's cryptosuite
 * objects: each format owns its detection, its securing and its checks; the caller owns what is
 * common (validity period, status lists, related resources, reporting).
 */
import type { JsonWebKey } from 'node:crypto';
import type { DidResolver, IssuerKeyType, IssuingSuite, JsonObject, ProofPurpose, ProofSigner, VcProblem } from '../vc/ports';

/** The OpenID4VCI 1.0 `format` identifiers (Appendix A) a format can be offered under. */
export const OID4VCI_FORMAT_IDS = ['jwt_vc_json', 'ldp_vc', 'dc+sd-jwt', 'mso_mdoc'] as const;
export type Oid4vciFormatId = (typeof OID4VCI_FORMAT_IDS)[number];

/**
 * Issuer trust for formats whose issuer is named by a certificate chain or an `iss` (SD-JWT VC,
 * mdoc): the shared contract implemented in src/x509 (x5cTrust) and over the DID resolver. It
 * throws an AppError (VERIFICATION_FAILED or INVALID_INPUT) when the issuer is not trusted.
 */
export type IssuerTrust = (input: { x5c?: string[]; iss?: string; kid?: string }) => Promise<{ publicJwk: JsonWebKey; trustedBy: 'x5c' | 'did' }>;

/** What a verification may need; a format reads only what applies to it. */
export interface VerifyContext {
  /** The instant freshness and proof dates are judged at; the system clock when left out. */
  readonly now?: Date;
  /** DID-bound formats (Data Integrity, JWT VCs, the seed's styles) resolve the signing method through it. */
  readonly resolver?: DidResolver;
  /** x5c- or iss-bound formats (SD-JWT VC, mdoc) ask it whether the issuer is trusted. */
  readonly trust?: IssuerTrust;
  /** assertionMethod for credentials (the default), authentication for presentations. */
  readonly purpose?: ProofPurpose;
  /** The issuer (or holder) the signing key must be controlled by. */
  readonly expectedController?: string;
  /** The verifier's nonce a presentation must be bound to (Data Integrity challenge, KB-JWT nonce). */
  readonly challenge?: string;
  /** The audience a presentation must name (Data Integrity domain, KB-JWT aud). */
  readonly domain?: string | readonly string[];
  /** How old a key-binding proof may be, in seconds (default 300). */
  readonly maxAgeSeconds?: number;
  /** Reads a Token Status List entry (0 = valid); status is not checked without it. */
  readonly checkTokenStatus?: (reference: { uri: string; idx: number }) => Promise<number>;
}

/**
 * A format's verdict on the signature and its own rules. A bad credential is an answer
 * (`verified: false` with problems), never an exception (habit 2); only malformed input that
 * cannot be read as anything and infrastructure faults throw.
 */
export interface FormatVerification {
  readonly verified: boolean;
  readonly problems: readonly VcProblem[];
  /** The suite or securing mechanism that was checked, e.g. 'DataIntegrityProof/eddsa-rdfc-2022', 'vc+jwt'. */
  readonly suite?: string;
  readonly verificationMethod?: string;
  /** The controller of each proof's method, when every method was dereferenced (for the issuer binding). */
  readonly controllers?: readonly string[];
  /** The credential (or presentation) as the signature covers it; use it, never the caller's copy. */
  readonly credential?: JsonObject;
  /**
   * True when verifying already bound the signing key to the credential's issuer (a JWT's key is
   * the issuer's by construction); otherwise the caller compares `controllers` with the issuer.
   */
  readonly issuerBound: boolean;
}

/** One status list a credential is in: what revocation flips and verification reads. */
export interface StatusReference {
  /** The list's URL (statusListCredential of a BitstringStatusListEntry, `status_list.uri` of a token status list). */
  readonly uri: string;
  readonly index: number;
  /** revocation, suspension, … (a token status list has one list per purpose). */
  readonly purpose: string;
}

/** How a format's credentials carry status. */
export interface FormatStatus {
  /** 'BitstringStatusList' (W3C) or 'TokenStatusList' (IETF draft-ietf-oauth-status-list). */
  readonly mechanism: string;
  /** The status lists a (verified) credential names; [] when it names none or only entries of another mechanism. */
  referencesOf(credential: JsonObject): StatusReference[];
}

/** What the W3C formats an issuer instance of the VC-API can sign with declare about themselves. */
export interface VcApiSuite {
  /** The name issuer instances store and clients send (`cryptosuite`): eddsa-rdfc-2022, …, vc+jwt. */
  readonly suite: IssuingSuite;
  /** The key types it signs with; the first is the default. */
  readonly keyTypes: readonly IssuerKeyType[];
  /** Whether the Data Integrity proof options (created, challenge, domain) apply to it. */
  readonly proofOptions: boolean;
  /**
   * The embedded-proof suite that signs this instance's status list credentials: a status list is
   * fetched as JSON by verifiers of any kind, so a JWT issuer signs its lists with a Data Integrity suite.
   */
  statusListSuite(keyType: IssuerKeyType): Exclude<IssuingSuite, 'vc+jwt'>;
}

/**
 * Presentations secured by the format (a W3C VP with an embedded proof, a VP-JWT): detection and
 * verification, as for credentials. A format that is presented some other way (SD-JWT VC with a
 * key-binding JWT, an mdoc DeviceResponse) verifies that form through `verify` with the context's
 * challenge/domain and leaves this out.
 */
export interface PresentationSupport {
  detect(input: unknown): boolean;
  verify(input: unknown, context: VerifyContext): Promise<FormatVerification>;
}

/**
 * A credential format. `Issue` is what issuing needs (the credential or claims, a signer), and
 * `Issued` what it yields (a JSON credential, a compact SD-JWT, IssuerSigned CBOR); `Present` is
 * what a holder gives to make a presentation of it.
 */
export interface CredentialFormat<Issue = never, Issued = unknown, Present = never> {
  /** Unique in a registry: 'family-a', 'di:eddsa-rdfc-2022', 'vc+jwt', 'dc+sd-jwt', 'mso_mdoc', … */
  readonly id: string;
  readonly title: string;
  /** The OpenID4VCI format identifier it is offered under, if wallets can receive it. */
  readonly oid4vciFormat?: Oid4vciFormatId;
  /** Present on the W3C formats a VC-API issuer instance signs with. */
  readonly vcApi?: VcApiSuite;
  /**
   * Whether `input` is a credential of this format, judged from its shape alone (no crypto): the
   * registry asks the formats in registration order and the first that says yes verifies it.
   */
  detect(input: unknown): boolean;
  /**
   * The credential as a JSON document, readable before any signature is checked (an embedded proof
   * sits beside what it signs). Left out by formats whose signature encloses the credential (a JWT
   * is opened by verifying it).
   */
  read?(input: unknown): JsonObject | undefined;
  issue(request: Issue): Promise<Issued>;
  verify(input: unknown, context: VerifyContext): Promise<FormatVerification>;
  /** A holder's presentation of a credential (a signed VP, an SD-JWT with key binding, a DeviceResponse). */
  present?(request: Present): Promise<unknown>;
  /** A copy that discloses only `attributes`, still verifying under the issuer's signature (selective disclosure). */
  derive?(credential: Issued, attributes: readonly string[]): Promise<Issued>;
  readonly status?: FormatStatus;
  readonly presentation?: PresentationSupport;
}

/** Any registered format: callers that only detect and verify need no issue types. */
// `any` in the request position: a registry holds formats whose issue inputs differ, and a caller
// that issues takes a typed lookup (registry.forIssuingSuite) or its own format module.
export type AnyCredentialFormat = CredentialFormat<any, unknown, any>;

/** What the W3C formats issue from: a prepared credential (issuer and dates set), a signer, proof options. */
export interface W3cIssueRequest {
  readonly credential: JsonObject;
  readonly signer: ProofSigner;
  readonly options?: { readonly created?: string; readonly challenge?: string; readonly domain?: string };
  /** Selective-disclosure formats (bbs-2023): claims, as JSON pointers, every derivation must disclose. */
  readonly mandatoryPointers?: readonly string[];
}

/** A W3C format a VC-API issuer instance can sign with. */
export type W3cCredentialFormat = CredentialFormat<W3cIssueRequest, JsonObject, W3cPresentRequest> & { readonly vcApi: VcApiSuite };

/** A holder's W3C presentation: the unsigned presentation, the holder's signer, and the verifier's challenge/domain. */
export interface W3cPresentRequest {
  readonly presentation: JsonObject;
  readonly signer: ProofSigner;
  readonly challenge?: string;
  readonly domain?: string;
}
