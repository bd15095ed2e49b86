import { createPublicKey, randomBytes, randomUUID, verify, webcrypto } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { p256 } from '@noble/curves/nist.js';
import { PrismaOid4vcKeyRepository } from '../../src/db/repositories/oid4vc-key.repository';
import type { Clock } from '../../src/domain/ports';
import type { Oid4vcKeyPurpose } from '../../src/domain/oid4vc-keys';
import { open } from '../../src/kms/envelope';
import { verifyMasterKey } from '../../src/kms/master-key-check';
import { createLogger } from '../../src/logging/logger';
import { ISSUING_CA_SECRET, Oid4vcKeysService } from '../../src/services/oid4vc-keys.service';
import { derToX5c, issueIntermediateCertificate, parseCertificate, subjectAltNames, toPem, x509Hash, x5cToDer, x5cTrust } from '../../src/x509';
import { loadOid4vcMaterial } from '../../src/x509/operator-material';
import { LogCapture, startTestServer, useTestServer } from '../support/harness';
import { createTestDatabase } from '../support/test-db';
import { INSIDE, testLeaf, testRoot, VALID_FROM, VALID_UNTIL } from '../support/x509-test-ca';

/*
 * Per-tenant OpenID4VC keys on the suite's database (PostgreSQL, or PGlite with CREDGATE_TEST_DB=pglite):
 * one key per tenant and purpose however many first uses race, sealed at rest, certified by the
 * deployment's CA, renewed in place, and never in a log line.
 */

const masterKey = randomBytes(32);
const server = useTestServer(() => ({ masterKey }));
const logs = new LogCapture();

class MovableClock implements Clock {
  constructor(private at: Date) {}
  now(): Date {
    return new Date(this.at);
  }
  advanceDays(days: number): void {
    this.at = new Date(this.at.getTime() + days * 86_400_000);
  }
}

/**
 * The repository with a gate: the first `racers` lookups all wait until every one of them found
 * nothing, so that many first uses really do reach the insert together; it counts who won.
 */
class RacingRepository extends PrismaOid4vcKeyRepository {
  private arrived = 0;
  private open!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.open = resolve));
  created = 0;
  lost = 0;
  constructor(private readonly racers: number) {
    super(server.app.db.prisma);
  }
  override async find(tenantId: string, purpose: Oid4vcKeyPurpose) {
    const found = await super.find(tenantId, purpose);
    if (this.arrived < this.racers && ++this.arrived === this.racers) this.open();
    await this.gate;
    return found;
  }
  override async createWithKey(...args: Parameters<PrismaOid4vcKeyRepository['createWithKey']>) {
    const out = await super.createWithKey(...args);
    if (out.created) this.created++;
    else this.lost++;
    return out;
  }
}

/** A service instance of its own (its own in-process state), as another instance of the deployment would have. */
async function instance(options: { clock?: Clock; publicUrl?: string; material?: Awaited<ReturnType<typeof loadOid4vcMaterial>>; repo?: PrismaOid4vcKeyRepository } = {}): Promise<Oid4vcKeysService> {
  return new Oid4vcKeysService({
    repo: options.repo ?? new PrismaOid4vcKeyRepository(server.app.db.prisma),
    custody: server.app.custody,
    keyring: await verifyMasterKey(server.app.db.prisma, masterKey),
    publicUrl: options.publicUrl ?? server.config.publicUrl,
    clock: options.clock ?? { now: () => new Date() },
    logger: createLogger('info', logs),
    material: options.material ?? { anchors: [] },
  });
}

async function newTenant(): Promise<string> {
  return (await server.app.services.auth.ensureTenant(`k-${randomUUID().slice(0, 8)}`)).id;
}

/** Every way a key's bytes could be spelled in a log or a column. */
function spellings(secret: Uint8Array): string[] {
  const b = Buffer.from(secret);
  return [b.toString('hex'), b.toString('base64'), b.toString('base64url'), b.toString('base64').replace(/=+$/, '')];
}

const privateScalars: Uint8Array[] = [];

test('ten concurrent first uses on ten instances give one key, one sealed key row and one CA', async () => {
  const tenantId = await newTenant();
  const repo = new RacingRepository(10);
  const instances = await Promise.all(Array.from({ length: 10 }, () => instance({ repo })));
  const signers = await Promise.all(instances.map((s) => s.signerFor(tenantId)));
  // All ten found nothing and inserted: one insert won, nine lost to the unique constraint.
  expect({ created: repo.created, lost: repo.lost }).toEqual({ created: 1, lost: 9 });
  expect(new Set(signers.map((s) => JSON.stringify(s.publicJwk))).size).toBe(1);
  expect(new Set(signers.map((s) => s.x5c!.join('.'))).size).toBe(1);
  const rows = await server.app.db.prisma.oid4vcKey.findMany({ where: { tenantId } });
  expect(rows).toHaveLength(1);
  const keys = await server.app.db.prisma.managedKey.findMany({ where: { tenantId } });
  expect(keys.map((k) => k.id)).toEqual([rows[0]!.managedKeyId]);
  expect(keys[0]).toMatchObject({ algorithm: 'P-256', purpose: 'oid4vci-issuer' });
  expect(await server.app.db.prisma.sealedSecret.count({ where: { name: ISSUING_CA_SECRET } })).toBe(1);
  // The instances all certified with the one stored CA.
  expect(new Set(signers.map((s) => s.x5c![1])).size).toBe(1);
  // And within one instance, concurrent first uses share one creation too.
  const other = await newTenant();
  const one = await instance();
  const again = await Promise.all(Array.from({ length: 10 }, () => one.signerFor(other)));
  expect(new Set(again.map((s) => JSON.stringify(s.publicJwk))).size).toBe(1);
  expect(await server.app.db.prisma.managedKey.count({ where: { tenantId: other } })).toBe(1);
});

test('the signer signs ES256 (raw r||s) with the sealed key, and its chain validates to the trust anchors', async () => {
  const tenantId = await newTenant();
  const keys = server.app.services.oid4vcKeys;
  const signer = await keys.signerFor(tenantId);
  expect(signer.alg).toBe('ES256');
  const data = new TextEncoder().encode('header.payload');
  const signature = await signer.sign(data);
  expect(signature).toHaveLength(64);
  const publicKey = createPublicKey({ key: signer.publicJwk, format: 'jwk' });
  expect(verify('sha256', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature)).toBe(true);
  expect(verify('sha256', new TextEncoder().encode('other'), { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature)).toBe(false);

  // leaf, then the generated root; the leaf names the public host (HAIP x509_san_dns) and URL.
  expect(signer.x5c).toHaveLength(2);
  const leaf = parseCertificate(x5cToDer(signer.x5c![0]));
  expect(subjectAltNames(leaf)).toEqual({ dnsNames: ['credgate.test'], uris: ['http://credgate.test'] });
  const anchors = await keys.trustAnchors();
  expect(anchors.map(derToX5c)).toContain(signer.x5c![1]);
  const trusted = await keys.issuerTrust()({ x5c: signer.x5c!, iss: 'http://credgate.test/oid4vci/acme' });
  expect(trusted.publicJwk).toEqual(signer.publicJwk);
  expect(trusted.certificate?.x509Hash).toBe(x509Hash(x5cToDer(signer.x5c![0])));
  // The same chain checked independently of the service's own wrapper.
  await expect(x5cTrust(anchors)({ x5c: signer.x5c! })).resolves.toMatchObject({ trustedBy: 'x5c' });
  expect(await keys.certificateChain(tenantId)).toEqual(signer.x5c!.map(x5cToDer));

  // The request-object key is another key, certified the same way.
  const request = await keys.requestSignerFor(tenantId);
  expect(request.publicJwk).not.toEqual(signer.publicJwk);
  await expect(keys.issuerTrust()({ x5c: request.x5c! })).resolves.toMatchObject({ publicJwk: request.publicJwk });
  expect((await server.app.db.prisma.oid4vcKey.findMany({ where: { tenantId } })).map((r) => r.purpose).sort()).toEqual(['oid4vci-issuer', 'oid4vp-request']);
});

test('the private key is sealed at rest: its bytes are in no column of either table', async () => {
  const tenantId = await newTenant();
  const signer = await server.app.services.oid4vcKeys.signerFor(tenantId);
  const row = await server.app.db.prisma.oid4vcKey.findUniqueOrThrow({ where: { tenantId_purpose: { tenantId, purpose: 'oid4vci-issuer' } } });
  const scalar = await server.app.custody.use(tenantId, row.managedKeyId, (sk) => Uint8Array.from(sk));
  privateScalars.push(scalar);
  // It is the key of the signer's public JWK.
  const point = p256.Point.fromBytes(p256.getPublicKey(scalar, false));
  expect(Buffer.from(point.toBytes(false).subarray(1, 33)).toString('base64url')).toBe(signer.publicJwk.x);
  const raw = await server.app.db.sql.query<{ row: string }>(
    // row_to_json spells bytea as hex: every stored byte of both rows, as the database holds them.
    `SELECT row_to_json(m)::text AS row FROM managed_keys m WHERE m.id = $1 UNION ALL SELECT row_to_json(o)::text FROM oid4vc_keys o WHERE o.id = $2`,
    [row.managedKeyId, row.id],
  );
  const stored = raw.map((r) => r.row).join('\n').replace(/\s+/g, '');
  expect(stored.length).toBeGreaterThan(200);
  for (const s of spellings(scalar)) expect(stored).not.toContain(s);

  // The generated CA's private key is sealed too.
  const ca = await server.app.db.prisma.sealedSecret.findUniqueOrThrow({ where: { name: ISSUING_CA_SECRET } });
  const caPlain = JSON.parse(open(await verifyMasterKey(server.app.db.prisma, masterKey), ca.sealed, `credgate/sealed-secret/v1|${ISSUING_CA_SECRET}`).toString('utf8')) as { privateKey: string };
  const caPkcs8 = Buffer.from(caPlain.privateKey, 'base64');
  privateScalars.push(caPkcs8);
  const caRaw = Buffer.from(ca.sealed).toString('hex') + Buffer.from(ca.sealed).toString('base64');
  for (const s of spellings(caPkcs8)) expect(caRaw).not.toContain(s);
  expect(caRaw).not.toContain(caPkcs8.subarray(caPkcs8.length - 32).toString('hex'));
});

test('a certificate near its end is renewed for the same key; a new public host gets a new leaf', async () => {
  const tenantId = await newTenant();
  const clock = new MovableClock(new Date());
  const keys = await instance({ clock });
  const first = await keys.signerFor(tenantId);
  const firstLeaf = parseCertificate(x5cToDer(first.x5c![0]));
  clock.advanceDays(100);
  expect((await keys.signerFor(tenantId)).x5c).toEqual(first.x5c);
  clock.advanceDays(240); // 25 days before the leaf's end: renewal time.
  const renewed = await keys.signerFor(tenantId);
  expect(renewed.publicJwk).toEqual(first.publicJwk);
  expect(renewed.x5c![0]).not.toBe(first.x5c![0]);
  expect(parseCertificate(x5cToDer(renewed.x5c![0])).notAfter.getTime()).toBeGreaterThan(firstLeaf.notAfter.getTime());
  const row = await server.app.db.prisma.oid4vcKey.findUniqueOrThrow({ where: { tenantId_purpose: { tenantId, purpose: 'oid4vci-issuer' } } });
  expect(row.certificateChain).toEqual(renewed.x5c);
  expect(await server.app.db.prisma.managedKey.count({ where: { tenantId } })).toBe(1);

  const moved = await instance({ clock, publicUrl: 'https://wallets.example.org' });
  const movedSigner = await moved.signerFor(tenantId);
  expect(movedSigner.publicJwk).toEqual(first.publicJwk);
  expect(subjectAltNames(parseCertificate(x5cToDer(movedSigner.x5c![0]))).dnsNames).toEqual(['wallets.example.org']);
});

describe('operator-supplied certificates (CREDGATE_OID4VC_ISSUER_CERT_FILE / _KEY_FILE / _TRUST_ANCHORS_FILE)', () => {
  // The operator's certificates are valid 2026-2036 (test/support/x509-test-ca.ts); the service looks at them in 2027.
  const fixed: Clock = { now: () => INSIDE };
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'credgate-oid4vc-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function pkcs8Pem(key: webcrypto.CryptoKey): Promise<string> {
    const der = new Uint8Array(await webcrypto.subtle.exportKey('pkcs8', key));
    return toPem(der, 'PRIVATE KEY');
  }

  test('an operator issuing CA certifies each tenant key; the chain ends at the operator root', async () => {
    const root = await testRoot('Operator Root');
    const exportable = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    const caCert = await issueIntermediateCertificate({ issuer: root, subject: { commonName: 'Operator Issuing CA' }, publicKey: exportable.publicKey, notBefore: VALID_FROM, notAfter: VALID_UNTIL, pathLength: 0 });
    writeFileSync(path.join(dir, 'ca.pem'), toPem(caCert) + toPem(root.certificate));
    writeFileSync(path.join(dir, 'ca.key'), await pkcs8Pem(exportable.privateKey));
    writeFileSync(path.join(dir, 'anchors.pem'), toPem(root.certificate));
    const material = await loadOid4vcMaterial({ issuerCertFile: path.join(dir, 'ca.pem'), issuerKeyFile: path.join(dir, 'ca.key'), trustAnchorsFile: path.join(dir, 'anchors.pem') });
    expect(material.operator?.isCa).toBe(true);
    const keys = await instance({ material, clock: fixed });
    const tenantId = await newTenant();
    const signer = await keys.signerFor(tenantId);
    expect(signer.x5c!.slice(1)).toEqual([derToX5c(caCert), derToX5c(root.certificate)]);
    expect((await keys.trustAnchors()).map(derToX5c)).toEqual([derToX5c(root.certificate)]);
    await expect(keys.issuerTrust()({ x5c: signer.x5c!, iss: 'https://credgate.test/issuer' })).resolves.toMatchObject({ publicJwk: signer.publicJwk });
    // A key certified by the generated CA earlier is re-certified under the operator's CA (same key).
    const before = await (await instance()).signerFor(tenantId, 'oid4vp-request');
    const after = await keys.signerFor(tenantId, 'oid4vp-request');
    expect(after.publicJwk).toEqual(before.publicJwk);
    expect(after.x5c!.slice(1)).toEqual([derToX5c(caCert), derToX5c(root.certificate)]);
  });

  test('an operator end-entity certificate signs for every tenant, with the key from the file', async () => {
    const root = await testRoot('Operator Root');
    const leaf = await testLeaf(root, { dnsNames: ['credgate.test'] });
    writeFileSync(path.join(dir, 'leaf.pem'), toPem(leaf.der) + toPem(root.certificate));
    writeFileSync(path.join(dir, 'leaf.key'), await pkcs8Pem(leaf.keys.privateKey));
    const material = await loadOid4vcMaterial({ issuerCertFile: path.join(dir, 'leaf.pem'), issuerKeyFile: path.join(dir, 'leaf.key') });
    expect(material.operator?.isCa).toBe(false);
    const keys = await instance({ material, clock: fixed });
    const [a, b] = await Promise.all([keys.signerFor(await newTenant()), keys.requestSignerFor(await newTenant())]);
    expect(a.x5c).toEqual([derToX5c(leaf.der), derToX5c(root.certificate)]);
    expect(b.publicJwk).toEqual(a.publicJwk);
    const data = new TextEncoder().encode('x');
    expect(verify('sha256', data, { key: createPublicKey({ key: a.publicJwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }, await a.sign(data))).toBe(true);
    await expect(keys.issuerTrust()({ x5c: a.x5c!, iss: 'https://credgate.test' })).resolves.toMatchObject({ trustedBy: 'x5c' });
  });

  test('a key that is not the certificate\'s, a broken chain or a missing file stops start-up with a clear message', async () => {
    const root = await testRoot('Operator Root');
    const leaf = await testLeaf(root);
    const stranger = await testLeaf(root);
    writeFileSync(path.join(dir, 'a.pem'), toPem(leaf.der));
    writeFileSync(path.join(dir, 'b.key'), await pkcs8Pem(stranger.keys.privateKey));
    await expect(loadOid4vcMaterial({ issuerCertFile: path.join(dir, 'a.pem'), issuerKeyFile: path.join(dir, 'b.key') })).rejects.toThrow(/is not the key of the first certificate/);
    writeFileSync(path.join(dir, 'c.pem'), toPem(leaf.der) + toPem((await testRoot('Other')).certificate));
    writeFileSync(path.join(dir, 'a.key'), await pkcs8Pem(leaf.keys.privateKey));
    await expect(loadOid4vcMaterial({ issuerCertFile: path.join(dir, 'c.pem'), issuerKeyFile: path.join(dir, 'a.key') })).rejects.toThrow(/certificate 1 is not signed by certificate 2/);
    await expect(loadOid4vcMaterial({ issuerCertFile: path.join(dir, 'missing.pem'), issuerKeyFile: path.join(dir, 'a.key') })).rejects.toThrow(/cannot read/);
    writeFileSync(path.join(dir, 'empty.pem'), 'nothing here');
    await expect(loadOid4vcMaterial({ trustAnchorsFile: path.join(dir, 'empty.pem') })).rejects.toThrow(/no PEM CERTIFICATE/);
    // The messages name files, never key bytes.
    const pem = await pkcs8Pem(stranger.keys.privateKey);
    const e = await loadOid4vcMaterial({ issuerCertFile: path.join(dir, 'a.pem'), issuerKeyFile: path.join(dir, 'b.key') }).catch((err: Error) => err);
    expect(String((e as Error).message)).not.toContain(pem.split('\n')[1]!.slice(0, 20));
  });
});

test('no private key material appears in the logs', async () => {
  const all = logs.text() + server.logs.text();
  expect(all).toMatch(/self-signed root/);
  // The warning carries the root (public) for the operator to distribute: the one the signers chain to.
  const warning = JSON.parse(all.split('\n').find((l) => l.includes('self-signed root'))!) as { certificate: string };
  expect((await server.app.services.oid4vcKeys.trustAnchors()).map(derToX5c)).toContain(warning.certificate);
  expect(privateScalars.length).toBeGreaterThanOrEqual(2);
  for (const secret of privateScalars) for (const s of spellings(secret)) expect(all).not.toContain(s);
  expect(all).not.toMatch(/PRIVATE KEY/);
});

test('an operator end-entity certificate outside its validity is not signed with', async () => {
  const root = await testRoot('Operator Root');
  const leaf = await testLeaf(root, { dnsNames: ['credgate.test'] });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'credgate-oid4vc-'));
  try {
    writeFileSync(path.join(dir, 'leaf.pem'), toPem(leaf.der));
    writeFileSync(path.join(dir, 'leaf.key'), toPem(new Uint8Array(await webcrypto.subtle.exportKey('pkcs8', leaf.keys.privateKey)), 'PRIVATE KEY'));
    const material = await loadOid4vcMaterial({ issuerCertFile: path.join(dir, 'leaf.pem'), issuerKeyFile: path.join(dir, 'leaf.key') });
    const late = await instance({ material, clock: { now: () => new Date(VALID_UNTIL.getTime() + 1000) } });
    await expect(late.signerFor(await newTenant())).rejects.toThrow(/not valid now/);
    expect(logs.text()).toMatch(/operator certificate .* is not valid now or ends within 30 days/);
    // Served under another host than the certificate names: said at first use.
    const elsewhere = await instance({ material, clock: { now: () => INSIDE }, publicUrl: 'https://elsewhere.example.org' });
    await elsewhere.signerFor(await newTenant());
    expect(logs.text()).toMatch(/does not name the public host/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the service reads the operator files at start-up, and a wrong key stops it', async () => {
  const root = await testRoot('Operator Root');
  const leaf = await testLeaf(root, { dnsNames: ['credgate.test'] });
  const other = await testLeaf(root);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'credgate-oid4vc-'));
  const pkcs8 = async (key: webcrypto.CryptoKey): Promise<string> => toPem(new Uint8Array(await webcrypto.subtle.exportKey('pkcs8', key)), 'PRIVATE KEY');
  try {
    const issuerCertFile = path.join(dir, 'leaf.pem');
    writeFileSync(issuerCertFile, toPem(leaf.der) + toPem(root.certificate));
    writeFileSync(path.join(dir, 'leaf.key'), await pkcs8(leaf.keys.privateKey));
    writeFileSync(path.join(dir, 'other.key'), await pkcs8(other.keys.privateKey));
    const started = await startTestServer({ env: { oid4vcKeys: { issuerCertFile, issuerKeyFile: path.join(dir, 'leaf.key') } }, clock: { now: () => INSIDE } });
    try {
      const tenant = await started.app.services.auth.ensureTenant('operator');
      expect((await started.app.services.oid4vcKeys.signerFor(tenant.id)).x5c).toEqual([derToX5c(leaf.der), derToX5c(root.certificate)]);
      expect(started.logs.text()).not.toMatch(/self-signed root/);
    } finally {
      await started.stop();
    }
    // A database of our own: a server that fails to start leaves it to us to drop.
    const db = await createTestDatabase();
    try {
      await expect(startTestServer({ db, env: { oid4vcKeys: { issuerCertFile, issuerKeyFile: path.join(dir, 'other.key') } } })).rejects.toThrow(/is not the key of the first certificate/);
    } finally {
      await db.drop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
