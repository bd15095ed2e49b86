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
import type { Es256Signer } from '../domain/keys/signer.port';
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

/** What an OpenID4VCI credential configuration is made from: a Family B template or a Family A schema version. */
export type Oid4vciSource =
  | { readonly kind: 'template'; readonly templateId: string; readonly name: string; readonly attributes: readonly string[] }
  | { readonly kind: 'schema'; readonly name: string; readonly version: number; readonly attributes: readonly string[] };

/** The tenant's OpenID4VC issuer key (ES256, private key held by key custody); x5c base64 DER, leaf first. */
export type Oid4vciSigner = Es256Signer;

/**
 * What a format's OpenID4VCI issuance needs from the deployment, injected by the issuer (habit 4):
 * the tenant's issuer key, a Token Status List slot per credential record, the clock, and the
 * tenant's default VC-API issuer for the W3C formats that sign with it.
 */
export interface Oid4vciIssuancePorts {
  signerFor(tenantId: string): Promise<Oid4vciSigner>;
  allocateStatus(tenantId: string, credentialId: string): Promise<{ readonly uri: string; readonly idx: number }>;
  now(): Date;
  /**
   * The tenant's VC-API issuer instances: the default one (suite left out) or the oldest one that
   * signs with `suite`, created on first use.
   */
  readonly w3c: {
    issuerDid(tenantId: string, suite?: string): Promise<string>;
    issue(tenantId: string, credential: JsonObject, suite?: string): Promise<JsonObject>;
  };
}

/** One credential for one holder key, as a wallet's credential request asks for it. */
export interface Oid4vciIssueInput {
  readonly tenantId: string;
  /** The credential issuer identifier (its URL). */
  readonly issuer: string;
  readonly configurationId: string;
  readonly source: Oid4vciSource;
  readonly metadata: Record<string, unknown>;
  readonly claims: Record<string, unknown>;
  readonly holderJwk: JsonWebKey;
}

/**
 * How the format is offered over OpenID4VCI 1.0: its members of a credential configuration and the
 * issuance of one credential. `ref` is what the issuance record keeps (its record id and status
 * slot when the credential has one, so revocation can find it).
 */
export interface Oid4vciSupport {
  /** The format-specific members of a configuration (vct, doctype, credential_definition, …); null when the source cannot be offered in it. */
  describe(source: Oid4vciSource, ctx: { readonly issuer: string; readonly configurationId: string }): Record<string, unknown> | null;
  issue(input: Oid4vciIssueInput, ports: Oid4vciIssuancePorts): Promise<{ credential: string | JsonObject; ref: Record<string, unknown> }>;
  /** The type metadata document behind a configuration's `vct` (SD-JWT VC §6), for formats that have one. */
  typeMetadata?(vct: string, source: Oid4vciSource): Record<string, unknown>;
}

/** What an OpenID4VP 1.0 verifier bound a vp_token to: a format checks the parts that apply to it. */
export interface Oid4vpBinding {
  readonly clientId: string;
  readonly nonce: string;
  readonly responseUri: string;
  /** JWK thumbprint of the response-encryption key (mdoc SessionTranscript, OID4VP 1.0 Annex B.2.6.1). */
  readonly jwkThumbprint?: Uint8Array;
  /** How old a key-binding proof may be, in seconds. */
  readonly maxAgeSeconds: number;
  /** The DCQL credential query's `meta` (vct_values, doctype_value, …). */
  readonly meta?: Record<string, unknown>;
}

/** One vp_token entry, checked by its format. */
export type Oid4vpPresentationCheck =
  /** Not a presentation of this format at all: the wallet's protocol error (invalid_request). */
  | { readonly malformed: string }
  | {
      /** Signature, binding, status and validity all hold (disclosure is judged by the caller). */
      readonly verified: boolean;
      /** What the format checked, as one label (the result's first check). */
      readonly checked: string;
      readonly problems: readonly { readonly code: string; readonly message: string }[];
      readonly type?: string;
      readonly issuer?: string;
      /** What the holder disclosed, shown to the relying party. */
      readonly claims: Record<string, unknown>;
      /** The claim path of everything disclosed, for "nothing else disclosed" against the query's paths. */
      readonly disclosed: readonly (readonly (string | number)[])[];
      /** The credential as the dcql library evaluates a query over it (when verified). */
      readonly dcql: Record<string, unknown>;
    };

/**
 * How the format is presented over OpenID4VP 1.0 (SD-JWT + KB-JWT, an mdoc DeviceResponse): the
 * verifier looks a DCQL credential query's `format` up here instead of branching on it.
 */
export interface Oid4vpSupport {
  /** The DCQL `format` identifiers it answers (the first is the current one; older aliases after it). */
  readonly dcqlFormats: readonly string[];
  /** Its entry of the request's client_metadata.vp_formats_supported. */
  readonly vpFormatsSupported: Record<string, unknown>;
  /** Verifies one vp_token entry; a bad presentation is an answer, malformed input `{ malformed }`. */
  verifyPresentation(entry: unknown, binding: Oid4vpBinding, context: VerifyContext): Promise<Oid4vpPresentationCheck>;
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
  /** Present on formats the OpenID4VCI issuer offers (under `oid4vciFormat`); several formats may share one. */
  readonly oid4vci?: Oid4vciSupport;
  /** Present on formats wallets present over OpenID4VP (DCQL). */
  readonly oid4vp?: Oid4vpSupport;
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
