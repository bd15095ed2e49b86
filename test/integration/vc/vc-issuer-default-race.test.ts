import { randomUUID } from 'node:crypto';
import { useTestServer } from '../../support/harness';
import { request } from '../../support/http';
import { PrismaVcIssuerRepository } from '../../../src/db/repositories/vc-issuer.repository';
import { bytesToHex } from '../../../src/domain/encoding';
import { generateSigningKeyPair, didKeyIdentity } from '../../../src/vc/signers/key-signer';

/*
 * A tenant's default VC-API issuer instance is made on first use; two first uses at once must
 * end with one default and no sealed key left behind by the loser.
 */

const server = useTestServer();

async function sealedKey(tenantId: string): Promise<{ id: string; did: string }> {
  const pair = generateSigningKeyPair('Ed25519');
  const { did } = didKeyIdentity('Ed25519', pair.publicKey);
  const key = await server.app.custody.store({ tenantId, algorithm: 'Ed25519', privateKey: pair.privateKey, publicKeyHex: bytesToHex(pair.publicKey), purpose: 'vc-api-issuer' });
  return { id: key.id, did };
}

test('the loser of a default-instance race gets the winner, and its unused sealed key is removed', async () => {
  const tenant = await server.app.services.auth.ensureTenant(`race-${randomUUID().slice(0, 8)}`);
  const repo = new PrismaVcIssuerRepository(server.app.db.prisma);
  const a = await sealedKey(tenant.id);
  const b = await sealedKey(tenant.id);
  const winner = await repo.create({ id: randomUUID(), tenantId: tenant.id, did: a.did, keyType: 'Ed25519', cryptosuite: 'eddsa-rdfc-2022', managedKeyId: a.id, isDefault: true });
  const loser = await repo.create({ id: randomUUID(), tenantId: tenant.id, did: b.did, keyType: 'Ed25519', cryptosuite: 'eddsa-rdfc-2022', managedKeyId: b.id, isDefault: true });
  expect(loser).toEqual(winner);
  const keys = await server.app.db.prisma.managedKey.findMany({ where: { tenantId: tenant.id } });
  expect(keys.map((k) => k.id)).toEqual([a.id]);
});

test('concurrent first uses of a new tenant share one default instance and leave no orphan key', async () => {
  const slug = `race-${randomUUID().slice(0, 8)}`;
  const key = await server.apiKey(slug, ['issuer']);
  // A credential names its issuer, so a client's first use is listing the instances (which creates
  // the default) or an issuance naming a DID it does not know yet (which creates it, then refuses).
  const credential = () => ({ '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiableCredential'], issuer: 'did:example:not-yet-known', credentialSubject: { id: 'did:example:s', name: 'A' } });
  const headers = { 'X-API-Key': key };
  const answers = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      i % 2 === 0 ? request(server.baseUrl, 'GET', '/vc-api/issuers', { headers }) : request(server.baseUrl, 'POST', '/vc-api/credentials/issue', { headers, body: { credential: credential() } }),
    ),
  );
  expect(answers.map((r) => r.status)).toEqual([200, 400, 200, 400, 200, 400]);
  const listed = answers.filter((r) => r.status === 200).map((r) => r.json as { issuer: string; default: boolean }[]);
  expect(listed.every((l) => l.length === 1 && l[0]!.default)).toBe(true);
  const did = listed[0]![0]!.issuer;
  expect(new Set(listed.map((l) => l[0]!.issuer))).toEqual(new Set([did]));
  const issued = await request(server.baseUrl, 'POST', '/vc-api/credentials/issue', { headers, body: { credential: { ...credential(), issuer: did } } });
  expect(issued.status).toBe(201);
  expect(issued.json.verifiableCredential.issuer).toBe(did);
  const tenant = await server.app.db.prisma.tenant.findUniqueOrThrow({ where: { slug } });
  const issuers = await server.app.db.prisma.vcIssuer.findMany({ where: { tenantId: tenant.id } });
  expect(issuers).toHaveLength(1);
  const keys = await server.app.db.prisma.managedKey.findMany({ where: { tenantId: tenant.id, purpose: 'vc-api-issuer' } });
  expect(keys.map((k) => k.id)).toEqual([issuers[0]!.managedKeyId]);
});
