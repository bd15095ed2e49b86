import { randomUUID } from 'node:crypto';
import { notFound } from '../../errors';
import { bytesToHex } from '../../domain/encoding';
import { parseDidKey } from '../../domain/dids/did-key';
import type { KeyCustody } from '../../domain/ports';
import type { Actor } from '../../domain/tenancy/actor';
import type { VcIssuerRecord, VcIssuerRepository } from '../../domain/vc-issuers';
import { createKeySigner, didKeyIdentity, generateSigningKeyPair } from '../../vc/signers/key-signer';
import type { IssuerKeyType, IssuingSuite, ProofSigner } from '../../vc/ports';
import { bbs2023Engine, g2DidKey, g2PublicKeyOf } from '../../formats/bbs-2023';
import { isUuid } from '../family-b/ids';
import { checkSuiteAndKey } from './suites';

/** What POST /vc-api/issuers answers (and GET /vc-api/issuers lists). */
export interface VcIssuerView {
  readonly id: string;
  /** The instance's did:key. */
  readonly issuer: string;
  readonly issueEndpoint: string;
  readonly cryptosuite: IssuingSuite;
  readonly keyType: IssuerKeyType;
  readonly default: boolean;
}

/** Custody `purpose` of instance keys (master-key rotation re-seals them like every other key). */
const KEY_PURPOSE = 'vc-api-issuer';
const DEFAULT_SUITE: IssuingSuite = 'eddsa-rdfc-2022';
/** What the tenant's default instance signs with (issuance checks a request against it before creating the instance). */
export const DEFAULT_INSTANCE: { readonly cryptosuite: IssuingSuite; readonly keyType: IssuerKeyType } = { cryptosuite: DEFAULT_SUITE, keyType: 'Ed25519' };

/** VC-API issuer instances: did:key issuers whose private keys the service holds sealed. */
export class VcIssuersService {
  constructor(
    private readonly repo: VcIssuerRepository,
    private readonly custody: KeyCustody,
    /** The VC-API base path, e.g. `/vc-api`. */
    private readonly base: string,
  ) {}

  /** POST /issuers `{ cryptosuite, keyType? }`. */
  async create(actor: Actor, input: { cryptosuite: string; keyType?: string | undefined }): Promise<VcIssuerView> {
    const { suite, keyType } = checkSuiteAndKey(input.cryptosuite, input.keyType);
    return this.view(await this.newInstance(actor.tenantId, suite, keyType, false));
  }

  /**
   * The tenant's instances, oldest first. The default instance is created here if it does not
   * exist yet: a credential must name its issuer, so this is how a client learns the DID the
   * default instance (POST /credentials/issue) signs as.
   */
  async list(actor: Actor): Promise<VcIssuerView[]> {
    await this.defaultFor(actor);
    return (await this.repo.listByTenant(actor.tenantId)).map((r) => this.view(r));
  }

  /** One of the tenant's instances; another tenant's is reported exactly like an unknown one. */
  async get(actor: Actor, id: string): Promise<VcIssuerRecord> {
    const r = isUuid(id) ? await this.repo.findForTenant(actor.tenantId, id) : null;
    if (!r) throw notFound('issuer instance');
    return r;
  }

  existingDefault(actor: Actor): Promise<VcIssuerRecord | null> {
    return this.repo.findDefault(actor.tenantId);
  }

  /** The tenant's default instance, created on first use (Ed25519, eddsa-rdfc-2022). */
  async defaultFor(actor: Actor): Promise<VcIssuerRecord> {
    return (await this.repo.findDefault(actor.tenantId)) ?? this.newInstance(actor.tenantId, DEFAULT_INSTANCE.cryptosuite, DEFAULT_INSTANCE.keyType, true);
  }

  /**
   * The tenant's oldest instance that signs with `suite`, created on first use with `keyType` (the
   * OpenID4VCI issuer offers a format by the suite that secures it, whatever the default instance
   * signs with). Two racing first uses may create two; the older one serves from then on.
   */
  async forSuite(actor: Actor, suite: string, keyType: string): Promise<VcIssuerRecord> {
    const checked = checkSuiteAndKey(suite, keyType);
    const found = (await this.repo.listByTenant(actor.tenantId)).find((r) => r.cryptosuite === checked.suite && r.keyType === checked.keyType);
    return found ?? this.newInstance(actor.tenantId, checked.suite, checked.keyType, false);
  }

  /** Any tenant's instance by id (status lists are public documents of their instance). */
  findById(id: string): Promise<VcIssuerRecord | null> {
    return this.repo.findById(id);
  }

  /** Runs `fn` with a signer over the instance's key, unsealed only for the call. */
  withSigner<T>(issuer: VcIssuerRecord, fn: (signer: ProofSigner) => Promise<T>): Promise<T> {
    if (issuer.keyType === 'Bls12381G2') {
      // BBS signs message lists in the bbs-2023 worker: its signer hands that worker the key for the call.
      const publicKey = g2PublicKeyOf(issuer.did);
      const { verificationMethod } = g2DidKey(publicKey);
      const unusable = (): Promise<Uint8Array> => Promise.reject(new Error('a BLS12-381 G2 key signs message lists through bbs-2023, not bytes'));
      return this.custody.use(issuer.tenantId, issuer.managedKeyId, (sk) => {
        const secretKey = Uint8Array.from(sk);
        return fn({ keyType: 'Bls12381G2', verificationMethod, sign: unusable, bbsKey: { secretKey, publicKey } }).finally(() => secretKey.fill(0));
      });
    }
    const keyType = issuer.keyType;
    const { verificationMethod } = didKeyIdentity(keyType, this.publicKeyOf(issuer));
    return this.custody.use(issuer.tenantId, issuer.managedKeyId, (sk) => fn(createKeySigner({ keyType, privateKey: sk }, verificationMethod)));
  }

  view(r: VcIssuerRecord): VcIssuerView {
    return { id: r.id, issuer: r.did, issueEndpoint: `${this.base}/issuers/${r.id}/credentials/issue`, cryptosuite: r.cryptosuite, keyType: r.keyType, default: r.isDefault };
  }

  /** The public key is in the DID: `did:key:z…` is the key's multibase fingerprint. */
  private publicKeyOf(issuer: VcIssuerRecord): Uint8Array {
    return parseDidKey(issuer.did).publicKey;
  }

  private async newInstance(tenantId: string, suite: IssuingSuite, keyType: IssuerKeyType, isDefault: boolean): Promise<VcIssuerRecord> {
    // BLS12-381 G2 keys are drawn in the bbs-2023 worker (Digital Bazaar's Multikey, the OS CSPRNG).
    const pair = keyType === 'Bls12381G2' ? await bbs2023Engine.generateKeyPair().then((p) => ({ privateKey: p.secretKey, publicKey: p.publicKey })) : generateSigningKeyPair(keyType);
    try {
      const { did } = keyType === 'Bls12381G2' ? g2DidKey(pair.publicKey) : didKeyIdentity(keyType, pair.publicKey);
      const key = await this.custody.store({ tenantId, algorithm: keyType, privateKey: pair.privateKey, publicKeyHex: bytesToHex(pair.publicKey), purpose: KEY_PURPOSE });
      return await this.repo.create({ id: randomUUID(), tenantId, did, keyType, cryptosuite: suite, managedKeyId: key.id, isDefault });
    } finally {
      pair.privateKey.fill(0);
    }
  }
}
