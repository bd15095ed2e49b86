import { createHash, createPublicKey, randomUUID, sign as nodeSign, webcrypto } from 'node:crypto';
import type { Logger } from '../logging/logger';
import { bytesToHex } from '../domain/encoding';
import { nistPublicKeyToJwk } from '../domain/keys/nist';
import type { Clock, KeyCustody } from '../domain/ports';
import type { Oid4vcKeyPurpose, Oid4vcKeyRecord, Oid4vcKeyRepository } from '../domain/oid4vc-keys';
import { type Keyring, open, seal } from '../kms/envelope';
import { sealManagedKey } from '../kms/key-custody';
import { sealedSecretAad as secretAad } from '../kms/sealed-secrets';
import { generateSigningKeyPair, signRaw } from '../vc/signers/key-signer';
import {
  type CertificateAuthority,
  createRootCa,
  type Der,
  derToX5c,
  type IssuerTrust,
  issueLeafCertificate,
  parseCertificate,
  type Signer,
  subjectAltNames,
  x5cToDer,
  x5cTrust,
} from '../x509';
import { ECDSA_P256, type WebCryptoKey } from '../x509/crypto';
import type { LoadedOid4vcMaterial, OperatorMaterial } from '../x509/operator-material';

/** The sealed_secrets row of the generated issuing CA; its envelope is bound to this name like the ledger seed's (re-sealed by rotation). */
export const ISSUING_CA_SECRET = 'oid4vc-issuing-ca';

const DAY_MS = 86_400_000;
/** Leaves live a year and are renewed (same key, new certificate) in their last month. */
const LEAF_LIFETIME_MS = 365 * DAY_MS;
const RENEW_BEFORE_MS = 30 * DAY_MS;
/** A generated root outlives any leaf it will sign; rotating it is an operator's decision, not a timer's. */
const ROOT_LIFETIME_MS = 20 * 365 * DAY_MS;
/** notBefore a little in the past: a wallet whose clock is behind must not see a certificate from the future. */
const BACKDATE_MS = 5 * 60_000;

/** How tenants' leaves are certified: by an issuing CA (generated or the operator's), or one operator leaf for all. */
type Issuing =
  | { readonly kind: 'ca'; readonly ca: CertificateAuthority; readonly chainAbove: readonly Der[]; readonly generated: boolean }
  | { readonly kind: 'leaf'; readonly operator: OperatorMaterial };

export interface Oid4vcKeysDeps {
  readonly repo: Oid4vcKeyRepository;
  /** Opens the sealed private key for each signature (KeyCustody.use): the plaintext never outlives it. */
  readonly custody: KeyCustody;
  /** Seals new keys (the same envelope and row binding as KeyCustody.store) inside the key row's own transaction. */
  readonly keyring: Keyring;
  /** CREDGATE_PUBLIC_URL: its host is every leaf's SAN dNSName (HAIP x509_san_dns). */
  readonly publicUrl: string;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly material: LoadedOid4vcMaterial;
}

interface SealedCa {
  readonly certificate: string;
  readonly privateKey: string;
}

/**
 * Per-tenant OpenID4VC signing keys (P-256) and their X.509 chains, and the trust anchors the
 * verifier accepts. A key is made on first use (race-safe: one per tenant and purpose), sealed at
 * rest like every managed key, and certified by the deployment's issuing CA: the operator's
 * (CREDGATE_OID4VC_ISSUER_CERT_FILE + _KEY_FILE), or one the service generates and keeps sealed.
 * An operator end-entity certificate instead signs for every tenant.
 */
export class Oid4vcKeysService {
  private issuing: Promise<Issuing> | undefined;
  /** First uses in this process share one creation; other instances are settled by the unique constraint. */
  private readonly creating = new Map<string, Promise<Oid4vcKeyRecord>>();
  private readonly host: string;

  constructor(private readonly d: Oid4vcKeysDeps) {
    this.host = new URL(d.publicUrl).hostname.replace(/^\[|\]$/g, '');
  }

  /**
   * The signer of a tenant's credentials (`purpose` 'oid4vci-issuer') or request objects
   * ('oid4vp-request'): ES256 with the tenant's key, `x5c` its chain (leaf first). The key and its
   * certificate are created on first use; the certificate is renewed when it nears its end or no
   * longer names the public host.
   */
  async signerFor(tenantId: string, purpose: Oid4vcKeyPurpose = 'oid4vci-issuer'): Promise<Signer> {
    const issuing = await this.issuingMaterial();
    if (issuing.kind === 'leaf') return this.operatorSigner(issuing.operator);
    const record = await this.keyRecord(tenantId, purpose, issuing);
    const { custody } = this.d;
    return {
      alg: 'ES256',
      publicJwk: { ...record.publicJwk },
      x5c: [...record.certificateChain],
      sign: (data) => custody.use(tenantId, record.managedKeyId, (sk) => signRaw('P-256', sk, data)),
    };
  }

  /** The verifier's request-object signer (OID4VP, client identifiers x509_san_dns and x509_hash). */
  requestSignerFor(tenantId: string): Promise<Signer> {
    return this.signerFor(tenantId, 'oid4vp-request');
  }

  /** A tenant's certificate chain for `purpose`, DER, leaf first (created on first use like the signer). */
  async certificateChain(tenantId: string, purpose: Oid4vcKeyPurpose = 'oid4vci-issuer'): Promise<Der[]> {
    const signer = await this.signerFor(tenantId, purpose);
    return (signer.x5c ?? []).map(x5cToDer);
  }

  /**
   * The certificates the verifier trusts as anchors of issuers' x5c chains: the configured
   * anchors, and the top of the deployment's own chain (its generated root, or the last
   * certificate of the operator's chain), so credentials this deployment issues verify here.
   */
  async trustAnchors(): Promise<Der[]> {
    const issuing = await this.issuingMaterial();
    const own = issuing.kind === 'ca' ? (issuing.chainAbove.length > 0 ? issuing.chainAbove[issuing.chainAbove.length - 1]! : issuing.ca.certificate) : issuing.operator.chain[issuing.operator.chain.length - 1]!;
    const anchors = [...this.d.material.anchors];
    if (!anchors.some((a) => Buffer.from(a).equals(Buffer.from(own)))) anchors.push(own);
    return anchors;
  }

  /** x5c issuer trust over trustAnchors(), at the verification's time (or the service clock). */
  issuerTrust(): IssuerTrust {
    return x5cTrust(() => this.trustAnchors(), { now: () => this.d.clock.now() });
  }

  private issuingMaterial(): Promise<Issuing> {
    if (!this.issuing) {
      this.issuing = this.loadIssuing();
      // A failed load (database down at the first use) is retried by the next caller, not remembered.
      this.issuing.catch(() => {
        this.issuing = undefined;
      });
    }
    return this.issuing;
  }

  private async loadIssuing(): Promise<Issuing> {
    const operator = this.d.material.operator;
    if (operator) this.warnAboutOperatorCertificate(operator);
    if (operator && !operator.isCa) return { kind: 'leaf', operator };
    if (operator) {
      return { kind: 'ca', ca: { certificate: operator.chain[0]!, privateKey: await webCryptoPrivateKey(operator) }, chainAbove: operator.chain, generated: false };
    }
    const ca = await this.generatedCa();
    return { kind: 'ca', ca, chainAbove: [ca.certificate], generated: true };
  }

  /**
   * What would make wallets refuse the operator's certificate, said once at first use rather than
   * found out from a wallet: it is near or past its end, or (an end-entity certificate) it does not
   * name the public host that x509_san_dns client identifiers and `iss` values use.
   */
  private warnAboutOperatorCertificate(operator: OperatorMaterial): void {
    const cert = parseCertificate(operator.chain[0]!);
    const now = this.d.clock.now().getTime();
    if (cert.notAfter.getTime() - now < RENEW_BEFORE_MS || cert.notBefore.getTime() > now) {
      this.d.logger.warn({ notBefore: cert.notBefore.toISOString(), notAfter: cert.notAfter.toISOString() }, 'OpenID4VC: the operator certificate (CREDGATE_OID4VC_ISSUER_CERT_FILE) is not valid now or ends within 30 days');
    }
    if (!operator.isCa && !subjectAltNames(cert).dnsNames.some((d) => d.toLowerCase() === this.host.toLowerCase())) {
      this.d.logger.warn({ host: this.host }, 'OpenID4VC: the operator end-entity certificate does not name the public host (CREDGATE_PUBLIC_URL) as a SAN dNSName; wallets will refuse x509_san_dns requests and issuers named by that host');
    }
  }

  /** The deployment's own root, made once (the first instance to store it wins) and kept sealed in sealed_secrets. */
  private async generatedCa(): Promise<CertificateAuthority> {
    const { repo, keyring, clock, logger } = this.d;
    let stored = await repo.findSecret(ISSUING_CA_SECRET);
    if (!stored) {
      const now = clock.now();
      const root = await createRootCa({
        subject: { commonName: 'Credgate OID4VC issuing CA (generated)', organization: this.host },
        notBefore: new Date(now.getTime() - BACKDATE_MS),
        notAfter: new Date(now.getTime() + ROOT_LIFETIME_MS),
      });
      const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', root.privateKey));
      const payload = Buffer.from(JSON.stringify({ certificate: derToX5c(root.certificate), privateKey: pkcs8.toString('base64') } satisfies SealedCa));
      try {
        stored = await repo.insertSecretIfAbsent(ISSUING_CA_SECRET, { sealed: seal(keyring, payload, secretAad(ISSUING_CA_SECRET)), kekId: keyring.sealing.id }, now);
      } finally {
        pkcs8.fill(0);
        payload.fill(0);
      }
    }
    const plain = open(keyring, stored.sealed, secretAad(ISSUING_CA_SECRET));
    let der: Buffer | undefined;
    try {
      const parsed = JSON.parse(plain.toString('utf8')) as SealedCa;
      der = Buffer.from(parsed.privateKey, 'base64');
      const privateKey = await webcrypto.subtle.importKey('pkcs8', der, ECDSA_P256, false, ['sign']);
      const certificate = x5cToDer(parsed.certificate);
      logger.warn(
        // The root itself (public), so an operator can hand it to the wallets and verifiers that should trust it.
        { certificateSha256: createHash('sha256').update(certificate).digest('hex'), certificate: derToX5c(certificate) },
        'OpenID4VC: no issuing CA is configured (CREDGATE_OID4VC_ISSUER_CERT_FILE / _KEY_FILE), so tenant certificates are issued by a self-signed root this deployment generated; wallets and verifiers trust them only if given that root. Fine for tests and trials, not for production.',
      );
      return { certificate, privateKey };
    } finally {
      plain.fill(0);
      der?.fill(0);
    }
  }

  private async keyRecord(tenantId: string, purpose: Oid4vcKeyPurpose, issuing: Extract<Issuing, { kind: 'ca' }>): Promise<Oid4vcKeyRecord> {
    const existing = await this.d.repo.find(tenantId, purpose);
    if (existing) return this.renewIfDue(existing, issuing);
    const slot = `${tenantId}/${purpose}`;
    let pending = this.creating.get(slot);
    if (!pending) {
      pending = this.create(tenantId, purpose, issuing).finally(() => this.creating.delete(slot));
      this.creating.set(slot, pending);
    }
    return pending;
  }

  private async create(tenantId: string, purpose: Oid4vcKeyPurpose, issuing: Extract<Issuing, { kind: 'ca' }>): Promise<Oid4vcKeyRecord> {
    const pair = generateSigningKeyPair('P-256');
    try {
      const id = randomUUID();
      const managedKeyId = randomUUID();
      const publicKeyHex = bytesToHex(pair.publicKey);
      const key = { id: managedKeyId, tenantId, algorithm: 'P-256' as const, publicKeyHex, purpose };
      const encryptedPrivateKey = sealManagedKey(this.d.keyring, key, pair.privateKey);
      const publicJwk = nistPublicKeyToJwk('P-256', pair.publicKey);
      const chain = await this.certify(tenantId, purpose, publicJwk, issuing);
      const { record } = await this.d.repo.createWithKey(
        { ...key, encryptedPrivateKey, kekId: this.d.keyring.sealing.id },
        { id, tenantId, purpose, managedKeyId, publicJwk: { ...publicJwk }, certificateChain: chain },
      );
      return record;
    } finally {
      pair.privateKey.fill(0);
    }
  }

  /** A leaf for the key, issued now by the issuing CA: the chain to store (x5c form, leaf first). */
  private async certify(tenantId: string, purpose: Oid4vcKeyPurpose, publicJwk: webcrypto.JsonWebKey, issuing: Extract<Issuing, { kind: 'ca' }>): Promise<string[]> {
    const now = this.d.clock.now();
    const caEnd = parseCertificate(issuing.ca.certificate, 'issuing CA certificate').notAfter.getTime();
    const notAfter = new Date(Math.min(now.getTime() + LEAF_LIFETIME_MS, caEnd));
    const publicKey: WebCryptoKey = await webcrypto.subtle.importKey('jwk', { kty: 'EC', crv: 'P-256', x: publicJwk.x, y: publicJwk.y }, ECDSA_P256, true, ['verify']);
    const leaf = await issueLeafCertificate({
      issuer: issuing.ca,
      subject: { commonName: `Credgate ${purpose === 'oid4vci-issuer' ? 'credential issuer' : 'verifier'} ${tenantId}`, organization: this.host },
      publicKey,
      ...this.sanOptions(),
      notBefore: new Date(now.getTime() - BACKDATE_MS),
      notAfter,
    });
    return [leaf, ...issuing.chainAbove].map(derToX5c);
  }

  /** dNSName = the public host (HAIP x509_san_dns), and the public URL as a URI (an `iss` equal to it matches too). */
  private sanOptions(): { dnsNames: string[]; uris: string[] } {
    const dnsLike = /^[A-Za-z0-9.-]+$/.test(this.host) && !this.host.includes(':');
    return { dnsNames: dnsLike ? [this.host.toLowerCase()] : [], uris: [this.d.publicUrl] };
  }

  private async renewIfDue(record: Oid4vcKeyRecord, issuing: Extract<Issuing, { kind: 'ca' }>): Promise<Oid4vcKeyRecord> {
    if (!this.renewalDue(record, issuing)) return record;
    const chain = await this.certify(record.tenantId, record.purpose, record.publicJwk, issuing);
    const now = this.d.clock.now();
    const current = await this.d.repo.replaceChain(record.id, record.certificateChain, chain, now);
    this.d.logger.info({ tenantId: record.tenantId, purpose: record.purpose }, 'OpenID4VC: renewed a signing certificate');
    return current ?? record;
  }

  /** Near or past its end, issued under another CA chain, or not naming the public host any more. */
  private renewalDue(record: Oid4vcKeyRecord, issuing: Extract<Issuing, { kind: 'ca' }>): boolean {
    const [leafB64, ...above] = record.certificateChain;
    if (leafB64 === undefined) return true;
    const expectedAbove = issuing.chainAbove.map(derToX5c);
    if (above.length !== expectedAbove.length || above.some((c, i) => c !== expectedAbove[i])) return true;
    const leaf = parseCertificate(x5cToDer(leafB64), 'stored leaf certificate');
    if (leaf.notAfter.getTime() - this.d.clock.now().getTime() < RENEW_BEFORE_MS) return true;
    const san = subjectAltNames(leaf);
    const { dnsNames, uris } = this.sanOptions();
    return !dnsNames.every((d) => san.dnsNames.includes(d)) || !uris.every((u) => san.uris.includes(u));
  }

  private operatorSigner(operator: OperatorMaterial): Signer {
    const leaf = parseCertificate(operator.chain[0]!);
    const now = this.d.clock.now();
    // Signing under a certificate outside its validity makes credentials nobody accepts: refuse loudly instead.
    if (now < leaf.notBefore || now > leaf.notAfter) throw new Error('the operator certificate (CREDGATE_OID4VC_ISSUER_CERT_FILE) is not valid now: renew it');
    const publicJwk = createPublicKey(operator.privateKey).export({ format: 'jwk' });
    return {
      alg: 'ES256',
      publicJwk,
      x5c: operator.chain.map(derToX5c),
      sign: async (data) => new Uint8Array(nodeSign('sha256', data, { key: operator.privateKey, dsaEncoding: 'ieee-p1363' })),
    };
  }
}

async function webCryptoPrivateKey(operator: OperatorMaterial): Promise<WebCryptoKey> {
  const der = operator.privateKey.export({ format: 'der', type: 'pkcs8' });
  try {
    return await webcrypto.subtle.importKey('pkcs8', der, ECDSA_P256, false, ['sign']);
  } finally {
    der.fill(0);
  }
}
