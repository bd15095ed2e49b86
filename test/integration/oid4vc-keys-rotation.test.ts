import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { PrismaManagedKeyRepository } from '../../src/db/repositories/managed-key.repository';
import { PrismaOid4vcKeyRepository } from '../../src/db/repositories/oid4vc-key.repository';
import { deriveCustodyKek } from '../../src/kms/key-derivation';
import { EnvelopeKeyCustody } from '../../src/kms/key-custody';
import { verifyMasterKey } from '../../src/kms/master-key-check';
import { rotateMasterKey } from '../../src/kms/rotation';
import { createLogger } from '../../src/logging/logger';
import { ISSUING_CA_SECRET, Oid4vcKeysService } from '../../src/services/oid4vc-keys.service';
import { LogCapture, useTestServer } from '../support/harness';

/*
 * A master-key rotation re-seals the generated OpenID4VC issuing CA with everything else: after it,
 * a service holding only the new key still certifies with the same root (verifiers pinned it) and
 * still signs with each tenant's same key.
 */

const oldKey = randomBytes(32);
const newKey = randomBytes(32);
const server = useTestServer(() => ({ masterKey: oldKey }));

test('after a rotation, the new key alone opens the issuing CA and the tenant keys', async () => {
  const tenant = await server.app.services.auth.ensureTenant('rotating');
  const before = await server.app.services.oid4vcKeys.signerFor(tenant.id);
  const prisma = server.app.db.prisma;
  const quiet = { start: () => undefined, done: () => undefined };
  const result = await rotateMasterKey(prisma, { current: oldKey, next: newKey }, quiet);
  expect(result).toMatchObject({ checkReplaced: true, sealedSecrets: 1 });
  expect(await prisma.sealedSecret.findUniqueOrThrow({ where: { name: ISSUING_CA_SECRET } })).toMatchObject({ kekId: deriveCustodyKek(newKey).id });

  const keyring = await verifyMasterKey(prisma, newKey);
  expect(keyring.opening.map((k) => k.id)).toEqual([deriveCustodyKek(newKey).id]);
  const after = new Oid4vcKeysService({
    repo: new PrismaOid4vcKeyRepository(prisma),
    custody: new EnvelopeKeyCustody(keyring, new PrismaManagedKeyRepository(prisma)),
    keyring,
    publicUrl: server.config.publicUrl,
    clock: { now: () => new Date() },
    logger: createLogger('info', new LogCapture()),
    material: { anchors: [] },
  });
  const signer = await after.signerFor(tenant.id);
  expect(signer.publicJwk).toEqual(before.publicJwk);
  expect(signer.x5c).toEqual(before.x5c);
  const data = new TextEncoder().encode('after rotation');
  expect(verify('sha256', data, { key: createPublicKey({ key: signer.publicJwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }, await signer.sign(data))).toBe(true);
  // A new tenant's leaf comes from the same root.
  const other = await server.app.services.auth.ensureTenant('rotating-2');
  expect((await after.signerFor(other.id)).x5c![1]).toBe(before.x5c![1]);
  // A second run has nothing left to do.
  expect(await rotateMasterKey(prisma, { current: newKey, next: newKey }, quiet)).toMatchObject({ sealedSecrets: 0, managedKeys: 0 });
});
