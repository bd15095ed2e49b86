import { hkdfSync } from 'node:crypto';
import type { JsonObject } from '../../vc/ports';
import { g2DidKey } from './did-key';
import type { BbsKeyPair, Bbs2023Engine } from './engine';
import { mandatoryPointersFor } from './format';

/**
 * VCDM 2.0, and its undefined-terms context, whose `@vocab` gives a template's attribute names and
 * type a term without a context of their own (JSON-LD safe mode, which bbs-2023 canonicalises in,
 * refuses a property that expands to nothing).
 */
export const TEMPLATE_CREDENTIAL_CONTEXT = ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/undefined-terms/v2'] as const;

/**
 * The seed of the BBS key a Family B issuer DID signs bbs-2023 template credentials with: HKDF-SHA256
 * of the DID's sealed secp256k1 key, bound to the DID and to this use. One key per issuer DID, never
 * stored (in clear or sealed) and never stored twice; rotating the DID's key rotates it. The info
 * string differs from the range-proof key's (src/zk), so the two BBS keys are unrelated.
 */
export function templateBbsSeed(privateKey: Uint8Array, did: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', privateKey, 'credgate/bbs-2023', `credgate/bbs-2023/template-issuer-key/v1\n${did}`, 32));
}

/** The issuer's BBS key pair from its seed (BBS KeyGen in the worker), and the did:key that names it. */
export async function templateBbsKey(engine: Bbs2023Engine, seed: Uint8Array): Promise<BbsKeyPair & { did: string }> {
  const pair = await engine.keyPairFromSeed(seed);
  return { ...pair, did: g2DidKey(pair.publicKey).did };
}

export interface TemplateCredentialContent {
  readonly id: string;
  readonly templateName: string;
  /** The issuer's BBS did:key (`did:key:zUC7…`). */
  readonly issuer: string;
  readonly holder: string | null;
  readonly validFrom: string;
  readonly validUntil: string;
  readonly values: Readonly<Record<string, unknown>>;
  readonly credentialStatus: Readonly<Record<string, unknown>>;
}

/**
 * A bbs-2023 template credential before its proof: VCDM 2.0, issued by the BBS did:key of the
 * template's issuer DID (so any bbs-2023 verifier checks it with that key alone, and the issuer
 * check of the VC-API holds), its status entry in the issuer DID's Family B list.
 */
export function templateCredential(c: TemplateCredentialContent): JsonObject {
  return {
    '@context': [...TEMPLATE_CREDENTIAL_CONTEXT],
    id: c.id,
    // The type is a term expanded against @vocab, so it must make an IRI: a template name's spaces
    // (the only character its syntax allows that an IRI does not) are percent-encoded.
    type: ['VerifiableCredential', templateType(c.templateName)],
    issuer: c.issuer,
    validFrom: c.validFrom,
    validUntil: c.validUntil,
    credentialSubject: { ...(c.holder !== null ? { id: c.holder } : {}), ...c.values } as JsonObject,
    credentialStatus: { ...c.credentialStatus } as JsonObject,
  };
}

/** A template name as a type term: `Staff card` → `Staff%20card` (JSON-LD safe mode refuses an IRI with a space). */
export function templateType(templateName: string): string {
  return encodeURI(templateName);
}

/**
 * Where a bbs-2023 template credential's status list is published: beside the issuer DID's Family B
 * list (`<base>/status/<listId>`, signed by the DID), the same bits as a bbs-2023 credential issued
 * by the DID's BBS did:key, so a W3C verifier finds the list issued by the credential's own issuer.
 */
export const BBS_STATUS_SUFFIX = '/bbs-2023';

/** The list id in a `<statusBase><listId>/bbs-2023` URL; undefined for any other URL. */
export function bbsStatusListId(url: string, statusBase: string): string | undefined {
  if (!url.startsWith(statusBase) || !url.endsWith(BBS_STATUS_SUFFIX)) return undefined;
  const id = url.slice(statusBase.length, url.length - BBS_STATUS_SUFFIX.length);
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id) ? id : undefined;
}

/**
 * The pointers every derivation discloses: issuer, type, validity and status (mandatoryPointersFor),
 * so a verifier can judge the issuer, the period and revocation of each. The credential `id` and
 * every claim about the subject, its id included, are the holder's to select.
 */
export function templateMandatoryPointers(credential: JsonObject): string[] {
  return mandatoryPointersFor(credential);
}
