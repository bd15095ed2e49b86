import { randomBytes } from 'node:crypto';
import { encryptValue } from '../../src/domain/encryption';
import { ed25519PublicKeyFromSeed } from '../../src/domain/keys';
import { type TestServer, startTestServer } from '../support/harness';
import { request } from '../support/http';
import { FAMILY_A_TRANSPORTS, newParty } from '../support/family-a-fixtures';

/**
 * Finding "/user/decrypt with 9,000 ciphertexts blocks for 14 s": every value costs two X25519
 * scalar multiplications on the event loop, and nothing bounded how many a request could carry.
 * The attacker is any holder-scoped key: the ciphertexts are genuine (made for the attacker's own
 * key), so each one costs the full decryption.
 */

let server: TestServer;
beforeAll(async () => {
  // Production's body limit (1 MiB), so the per-value size cap is reachable through HTTP.
  server = await startTestServer({ env: { bodyLimitBytes: 1024 * 1024 } });
});
afterAll(async () => {
  await server?.stop();
});

const seed = randomBytes(32);
const privateKey = seed.toString('base64');
const holderPublic = ed25519PublicKeyFromSeed(seed);
const credentialId = `urn:uuid:${randomBytes(16).toString('hex')}`;

/** A credential whose subject holds `n` genuine ciphertexts for the attacker's own key. */
function credentialWith(n: number): Record<string, unknown> {
  const subject: Record<string, string> = {};
  for (let i = 0; i < n; i++) subject[`a${i}`] = encryptValue(JSON.stringify(`v${i}`), holderPublic, { attribute: `a${i}`, credentialId });
  return { id: credentialId, type: ['VerifiableCredential', 'Encrypted'], credentialSubject: [subject] };
}

const MANY = 300;
let many: Record<string, unknown>;
let atMaximum: Record<string, unknown>;
beforeAll(() => {
  many = credentialWith(MANY);
  atMaximum = { ...many, credentialSubject: [Object.fromEntries(Object.entries((many['credentialSubject'] as Record<string, string>[])[0]!).slice(0, 129))] };
});

describe.each(FAMILY_A_TRANSPORTS)('/user/decrypt through %s', (name) => {
  test(`${MANY} ciphertexts are refused with 400 before any decryption`, async () => {
    const p = await newParty(server, name);
    expect(await p.fa.decrypt(p.holderKey, privateKey, many)).toEqual({ ok: false, status: 400, code: 'INVALID_INPUT' });
  });

  test('a single oversized ciphertext is refused with 400 INVALID_INPUT', async () => {
    const p = await newParty(server, name);
    const huge = { id: credentialId, credentialSubject: [{ a0: Buffer.alloc(96 * 1024, 1).toString('base64') }] };
    expect(await p.fa.decrypt(p.holderKey, privateKey, huge)).toEqual({ ok: false, status: 400, code: 'INVALID_INPUT' });
  });

  test('the documented maximum (129 values: 128 attributes and the id) still decrypts', async () => {
    const p = await newParty(server, name);
    const out = await p.fa.decrypt(p.holderKey, privateKey, atMaximum);
    expect(out).toEqual({ ok: true, data: Object.fromEntries(Array.from({ length: 129 }, (_, i) => [`a${i}`, `v${i}`])) });
  });
});

test('the REST message names the maximum', async () => {
  const key = await server.apiKey(`dec-${randomBytes(3).toString('hex')}`, ['holder']);
  const res = await request(server.baseUrl, 'POST', '/user/decrypt', { headers: { 'X-API-Key': key, privateKey }, body: { vc: many } });
  expect(res.status).toBe(400);
  expect(res.json.message).toMatch(/at most 129 /);
});
