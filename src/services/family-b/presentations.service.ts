import { AppError, invalidInput, notFound } from '../../errors';
import { discloseOnly, subjectOf } from '../../domain/credentials/family-b-credential';
import { isoSeconds } from '../../domain/credentials/family-a-credential';
import { parseDidKey } from '../../domain/dids/did-key';
import { didMethodOf, parseServiceDid } from '../../domain/dids/service-did';
import { isCredentialId, plainDid } from './ids';
import { bytesToHex, hexToBytes } from '../../domain/encoding';
import { parseSecp256k1PrivateKey, parseSecp256k1PublicKey, secp256k1PublicKeyFromPrivate } from '../../domain/keys';
import type { Clock, DidRepository, KeyCustody } from '../../domain/ports';
import { presentationShapeProblem, signPresentation, verifyPresentationSignature } from '../../domain/presentations';
import { CREDENTIALS_V1_URL } from '../../domain/contexts';
import type { Actor } from '../../domain/tenancy/actor';
import { isHolderBound, mayActFor } from '../../domain/tenancy/holder-binding';
import type { PrismaCredentialRepository } from '../../db/repositories/credential.repository';
import type { FamilyBCredentialsService, Json } from './credentials.service';
import type { CreatePresentationInput, VerifyPresentationInput } from '../../contracts/family-b/presentations';
import { BbsTemplateCredentials } from './bbs-template-credentials';

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const fail = (reason: string): AppError => new AppError('VERIFICATION_FAILED', reason);

/**
 * Most credentials one presentation may carry (and create-vp may bundle). Checked before any
 * signature or database work: a presentation repeating one credential 850 times made the service
 * verify it 850 times.
 */
export const MAX_PRESENTED_CREDENTIALS = 20;

function stringList(v: unknown, field: string): string[] {
  if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'string' && x !== '')) throw invalidInput(`${field} must be a non-empty array of strings`, [{ field, message: 'array of strings' }]);
  return v as string[];
}

/** Verifiable presentations with selective disclosure (section 2.11). */
export class PresentationsService {
  constructor(
    private readonly credentials: PrismaCredentialRepository,
    private readonly familyB: FamilyBCredentialsService,
    private readonly dids: DidRepository,
    private readonly custody: KeyCustody,
    private readonly clock: Clock,
  ) {}

  /**
   * POST /create-vp. Shows, per credential, only the shared attributes; signs as the holder. The
   * input has the operation's shape (REST checked the body against it, GraphQL's arguments have
   * it); the rules beyond shape (non-empty, lengths, one source of credentials) are checked here.
   */
  async create(actor: Actor, input: CreatePresentationInput): Promise<{ vpToken: Json }> {
    const { credentialIds, credentials, sharedAttributes, holderDID, challenge, domain, holderPrivateKey } = input;
    if (holderDID === '') throw invalidInput('holderDID is required', [{ field: 'holderDID', message: 'required' }]);
    // A holder-bound key signs only as its own holder (and so uses only that holder's key).
    if (!mayActFor(actor, holderDID)) throw new AppError('DID_NOT_FOUND', 'holderDID not found');
    for (const [k, v] of [['challenge', challenge], ['domain', domain]] as const) if (v !== undefined && (v === '' || v.length > 512)) throw invalidInput(`${k} must be a non-empty string`);
    const docs = await this.load(actor, credentialIds, credentials);
    // A bbs-2023 template credential is shown by deriving it (VC-API derive), never inside a Family B VP.
    const bbs = docs.find((d) => BbsTemplateCredentials.isStored(d) || BbsTemplateCredentials.claims(d));
    if (bbs) throw invalidInput(`credential ${String(bbs['id'])} is a bbs-2023 credential: derive a presentation from it (POST /vc-api/credentials/derive) instead`, [{ field: 'credentialIds', message: 'bbs-2023: derive instead' }]);
    const seen = new Set<string>();
    for (const doc of docs) {
      const id = String(doc['id']);
      if (seen.has(id)) throw invalidInput(`credential ${id} is given more than once`);
      seen.add(id);
    }
    const presented: Json[] = [];
    const attributes: Record<string, string[]> = {};
    for (const doc of docs) {
      const id = String(doc['id']);
      const holder = subjectOf(doc)?.['id'];
      if (typeof holder !== 'string' || plainDid(holder) !== plainDid(holderDID)) throw invalidInput(`credential ${id} is not held by holderDID`);
      const attrs = stringList(sharedAttributes[id], `sharedAttributes.${id}`);
      const subject = subjectOf(doc)!;
      const unknown = attrs.filter((a) => a === 'id' || !(a in subject));
      if (unknown.length > 0) throw invalidInput(`credential ${id} has no attribute ${unknown.join(', ')}`);
      presented.push(discloseOnly(doc, attrs));
      attributes[id] = attrs;
    }
    const extra = Object.keys(sharedAttributes).filter((k) => !(k in attributes));
    if (extra.length > 0) throw invalidInput(`sharedAttributes names credentials not presented: ${extra.join(', ')}`);
    const vp: Json = {
      '@context': [CREDENTIALS_V1_URL],
      type: ['VerifiablePresentation'],
      verifiableCredential: presented,
      holder: holderDID,
      presentationAttributes: attributes,
      issuanceDate: isoSeconds(this.clock.now()),
    };
    const options = {
      created: isoSeconds(this.clock.now()),
      verificationMethod: holderDID,
      proofPurpose: 'authentication',
      ...(challenge !== undefined ? { challenge } : {}),
      ...(domain !== undefined ? { domain } : {}),
    };
    if (holderPrivateKey !== undefined) {
      const sk = parseSecp256k1PrivateKey(holderPrivateKey, 'holderPrivateKey');
      const pub = await this.holderKey(holderDID);
      if (!pub || bytesToHex(secp256k1PublicKeyFromPrivate(sk)) !== bytesToHex(pub)) throw new AppError('PUBLIC_KEY_MISMATCH', 'holderPrivateKey is not the key of holderDID');
      return { vpToken: signPresentation(vp, holderPrivateKey, options) };
    }
    const ref = parseServiceDid(holderDID);
    const record = ref ? await this.dids.findForTenant(actor.tenantId, ref.did) : null;
    if (!record?.managedKeyId || record.keyAlgorithm !== 'secp256k1') throw invalidInput('the service holds no key for holderDID: pass holderPrivateKey');
    const vpToken = await this.custody.use(actor.tenantId, record.managedKeyId, (sk) => signPresentation(vp, bytesToHex(sk), options));
    return { vpToken };
  }

  /**
   * POST /verify-vp. Throws VERIFICATION_FAILED (400) with the first failed check, or
   * INVALID_INPUT (400) for a presentation over MAX_PRESENTED_CREDENTIALS.
   *
   * Order: cheap structural checks (size cap, members, pinned context, proofPurpose, dates), then
   * the holder key and signature (with the verifier's challenge and domain when given), then that
   * the credentials presented are exactly, and once each, those `presentationAttributes` names,
   * then each credential.
   */
  async verify(input: VerifyPresentationInput): Promise<{ message: string }> {
    const { vpToken, sharedAttributes, holderDID, holderPublicKey, challenge, domain } = input;
    const vcs = vpToken['verifiableCredential'];
    if (!Array.isArray(vcs) || vcs.length === 0) throw fail('presentation holds no credentials');
    const named = vpToken['presentationAttributes'];
    if (vcs.length > MAX_PRESENTED_CREDENTIALS || (isObject(named) && Object.keys(named).length > MAX_PRESENTED_CREDENTIALS)) {
      throw invalidInput(`a presentation may carry at most ${MAX_PRESENTED_CREDENTIALS} credentials`, [{ field: 'vpToken.verifiableCredential', message: 'too many credentials' }]);
    }
    const shape = presentationShapeProblem(vpToken, this.clock.now());
    if (shape) throw fail(shape);
    const key = parseSecp256k1PublicKey(holderPublicKey, 'holderPublicKey');
    const didKey = await this.holderKey(holderDID);
    if (!didKey || bytesToHex(didKey) !== bytesToHex(key)) throw fail('holderPublicKey is not the key of holderDID');
    const sig = verifyPresentationSignature(vpToken, holderPublicKey, {
      holder: holderDID,
      ...(challenge !== undefined ? { challenge } : {}),
      ...(domain !== undefined ? { domain } : {}),
    });
    if (!sig.valid) throw fail(`presentation signature: ${sig.reason ?? 'invalid'}`);
    if (JSON.stringify(sortKeys(sharedAttributes)) !== JSON.stringify(sortKeys(named))) throw fail('sharedAttributes differ from the presentation');
    const attributes = named as Record<string, unknown>;

    // Every named credential present, each exactly once, nothing presented that is not named.
    const byId = new Map<string, Json>();
    for (const vc of vcs) {
      if (!isObject(vc) || typeof vc['id'] !== 'string') throw fail('a presented credential is not an object with an id');
      if (byId.has(vc['id'])) throw fail(`credential ${vc['id']} is presented more than once`);
      byId.set(vc['id'], vc);
    }
    for (const id of Object.keys(attributes)) if (!byId.has(id)) throw fail(`credential ${id} is named in presentationAttributes but not presented`);
    for (const id of byId.keys()) if (!Object.hasOwn(attributes, id)) throw fail(`credential ${id} is presented but not named in presentationAttributes`);

    for (const [id, vc] of byId) {
      const holder = subjectOf(vc)?.['id'];
      if (typeof holder !== 'string' || plainDid(holder) !== plainDid(holderDID)) throw fail(`credential ${id} is not held by holderDID`);
      const expected = attributes[id];
      if (!Array.isArray(expected) || !expected.every((a) => typeof a === 'string')) throw fail(`presentationAttributes of ${id} must be a list of names`);
      const problem = await this.familyB.presentedProblem(vc, expected as string[]);
      if (problem) throw fail(`credential ${id}: ${problem}`);
    }
    return { message: 'VP and attributes verified' };
  }

  /**
   * The credentials to present: the tenant's own by id, or documents that verify in full. Either
   * way a revoked, expired or not-yet-valid credential is refused (Family B has no re-issue, so
   * nothing is superseded).
   */
  private async load(actor: Actor, ids: readonly string[] | undefined, given: readonly Json[] | undefined): Promise<Json[]> {
    if (ids !== undefined && given !== undefined) throw invalidInput('give credentialIds or credentials, not both');
    const tooMany = () => invalidInput(`a presentation may carry at most ${MAX_PRESENTED_CREDENTIALS} credentials`);
    if (ids !== undefined) {
      const list = stringList(ids, 'credentialIds');
      if (list.length > MAX_PRESENTED_CREDENTIALS) throw tooMany();
      const out: Json[] = [];
      const now = this.clock.now().getTime();
      for (const id of list) {
        const r = isCredentialId(id) ? await this.credentials.findForTenant(actor.tenantId, id) : null;
        // For a holder-bound key another holder's credential and an unknown id are the same 404.
        if (isHolderBound(actor) && (!r || !mayActFor(actor, r.holder))) throw notFound(`credential ${id}`);
        if (!r) throw invalidInput(`credential ${id} not found`, [{ field: 'credentialIds', message: `unknown ${id}` }]);
        if (r.status !== 'issued') throw invalidInput(`credential ${id} is revoked`, [{ field: 'credentialIds', message: 'revoked' }]);
        if (r.expiresAt.getTime() <= now) throw invalidInput(`credential ${id} has expired`, [{ field: 'credentialIds', message: 'expired' }]);
        if (Date.parse(String(r.document['issuanceDate'])) > now) throw invalidInput(`credential ${id} is not yet valid`, [{ field: 'credentialIds', message: 'not yet valid' }]);
        out.push(r.document);
      }
      return out;
    }
    if (given === undefined || given.length === 0) throw invalidInput('credentialIds or credentials is required', [{ field: 'credentialIds', message: 'required' }]);
    if (given.length > MAX_PRESENTED_CREDENTIALS) throw tooMany();
    for (const c of given) {
      const v = await this.familyB.verify(c);
      const failed = v.checks.filter((x) => !x.ok);
      if (failed.length > 0) throw invalidInput(`credential ${String(c['id'])} does not verify: ${failed.map((x) => x.detail ?? x.check).join('; ')}`);
    }
    return [...given];
  }

  /** The secp256k1 key of a holder DID (service DID of any tenant, or did:key). */
  private async holderKey(did: string): Promise<Uint8Array | undefined> {
    try {
      if (didMethodOf(did) === 'key') {
        const k = parseDidKey(did);
        return k.type === 'secp256k1' ? k.publicKey : undefined;
      }
      const ref = parseServiceDid(did);
      const r = ref ? await this.dids.findByDid(ref.did) : null;
      return r && r.keyAlgorithm === 'secp256k1' && r.deletedAt === null ? hexToBytes(r.publicKeyHex) : undefined;
    } catch {
      return undefined;
    }
  }
}

function sortKeys(v: unknown): unknown {
  if (!isObject(v)) return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]));
}
