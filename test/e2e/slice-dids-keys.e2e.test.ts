import { base58 } from '@scure/base';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { type TestServer, startTestServer } from '../support/harness';
import { readSharedJson } from '../support/shared';
import { type Transport, allTransports, TRANSPORT_NAMES } from '../support/transports';

type DidKeyVectors = Record<string, { didDocument: { verificationMethod: { type: string }[] } }>;

let server: TestServer;
let transports: Map<string, Transport>;
/** Every secret handed out during the suite; none may appear in any log line. */
const secrets: string[] = [];
const keys: Record<'issuer' | 'holder' | 'verifier' | 'other' | 'revoked', string> = {} as never;

beforeAll(async () => {
  server = await startTestServer();
  transports = new Map(allTransports(server).map((t) => [t.name, t]));
  keys.issuer = await server.apiKey('acme', ['issuer']);
  keys.holder = await server.apiKey('acme', ['holder']);
  keys.verifier = await server.apiKey('acme', ['verifier']);
  keys.other = await server.apiKey('globex', ['issuer', 'holder', 'verifier']);
  const revoked = await server.app.services.auth.createApiKey({ tenant: 'acme', scopes: ['admin'] });
  await server.app.services.auth.revokeApiKey('acme', revoked.apiKey.id);
  keys.revoked = revoked.key;
  secrets.push(...Object.values(keys), server.adminKey);
});

afterAll(async () => {
  await server?.stop();
});

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const unwrap = <T>(o: { ok: true; data: T } | { ok: false; status: number }): T => {
  if (!o.ok) throw new Error(`expected success, got HTTP-equivalent ${o.status}`);
  return o.data;
};

describe.each(TRANSPORT_NAMES)('first slice through %s', (name) => {
  const t = (): Transport => transports.get(name)!;

  test('GET /generate-keypair returns a fresh secp256k1 pair once and keeps it sealed', async () => {
    const kp = unwrap(await t().generateKeypair(keys.issuer));
    secrets.push(kp.privateKey);
    expect(kp.algorithm).toBe('secp256k1');
    expect(kp.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(kp.privateKey).toMatch(/^[0-9a-f]{64}$/);
    expect(hex(secp256k1.getPublicKey(Buffer.from(kp.privateKey, 'hex')))).toBe(kp.publicKey);
    // Sealed at rest: the stored row holds neither the private key text nor its bytes.
    const row = await server.app.db.prisma.managedKey.findUniqueOrThrow({ where: { id: kp.keyId } });
    expect(row.publicKeyHex).toBe(kp.publicKey);
    expect(Buffer.from(row.encryptedPrivateKey).includes(Buffer.from(kp.privateKey, 'hex'))).toBe(false);
    expect(Buffer.from(row.encryptedPrivateKey).toString('latin1')).not.toContain(kp.privateKey);
  });

  test('POST /dids registers a service DID with ledger ids, idempotently per key', async () => {
    const kp = unwrap(await t().generateKeypair(keys.holder));
    secrets.push(kp.privateKey);
    const first = unwrap(await t().createDid(keys.holder, { method: 'credgate', publicKey: kp.publicKey }));
    expect(first.created).toBe(true);
    const doc = first.document;
    expect(doc.id).toMatch(/^did:credgate:local:[1-9A-HJ-NP-Za-km-z]{16,24}:0\.0\.\d+$/);
    expect(doc.ledgerFileId).toBe(doc.id.split(':').pop());
    for (const id of [doc.topicId, doc.templateTopicId, doc.ledgerFileId]) expect(id).toMatch(/^0\.0\.\d+$/);
    expect(new Set([doc.topicId, doc.templateTopicId, doc.ledgerFileId]).size).toBe(3);
    expect(doc.publicKey).toEqual([
      { id: `${doc.id}#keys-1`, type: 'Secp256k1VerificationKey2018', publicKeyHex: kp.publicKey, _id: expect.stringMatching(/^[0-9a-f]{24}$/) },
    ]);
    expect(doc._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(doc.__v).toBe(0);
    expect(new Date(doc.created!).toISOString()).toBe(doc.created);
    expect(Array.isArray(doc.service)).toBe(true);

    const again = unwrap(await t().createDid(keys.holder, { method: 'credgate', publicKey: kp.publicKey }));
    expect(again.created).toBe(false);
    expect(again.document).toEqual(doc);

    // An uncompressed spelling of the same key is the same key.
    const uncompressed = hex(secp256k1.Point.fromHex(kp.publicKey).toBytes(false));
    expect(unwrap(await t().createDid(keys.holder, { method: 'credgate', publicKey: uncompressed })).document.id).toBe(doc.id);
  });

  test('GET /dids (header and path) finds the record by any spelling of the DID', async () => {
    const kp = unwrap(await t().generateKeypair(keys.issuer));
    secrets.push(kp.privateKey);
    const doc = unwrap(await t().createDid(keys.issuer, { method: 'credgate', publicKey: kp.publicKey })).document;
    const plain = doc.id.slice(0, doc.id.lastIndexOf(':'));
    const [, method, network, ident] = plain.split(':');
    const familyA = `${plain};${method}:${network}:fid=${doc.ledgerFileId}`;
    expect(ident).toBeDefined();
    for (const spelling of [doc.id, plain, familyA]) {
      expect(unwrap(await t().getDid(keys.verifier, spelling))).toEqual(doc);
    }
    // A wrong ledger file id names no document.
    expect(await t().getDid(keys.verifier, `${plain}:0.0.999999`)).toMatchObject({ ok: false, status: 404 });
  });

  test('GET /resolve and the universal resolver route return W3C documents', async () => {
    const kp = unwrap(await t().generateKeypair(keys.issuer));
    secrets.push(kp.privateKey);
    const doc = unwrap(await t().createDid(keys.issuer, { method: 'credgate', publicKey: kp.publicKey })).document;
    const plain = doc.id.slice(0, doc.id.lastIndexOf(':'));
    const w3c = unwrap(await t().resolveDocument(keys.verifier, doc.id));
    expect(w3c).toMatchObject({
      '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/secp256k1-2019/v1'],
      id: plain,
      verificationMethod: [
        { id: `${plain}#keys-1`, type: 'EcdsaSecp256k1VerificationKey2019', controller: plain, publicKeyBase58: base58.encode(Buffer.from(kp.publicKey, 'hex')) },
      ],
      authentication: [`${plain}#keys-1`],
      assertionMethod: [`${plain}#keys-1`],
    });
    const res = unwrap(await t().resolution(keys.verifier, plain));
    expect(res.didDocument).toEqual(w3c);
    expect(res.didResolutionMetadata).toMatchObject({ contentType: 'application/did+ld+json' });
    expect(res.didDocumentMetadata.created).toBe(doc.created);
  });

  test('resolution failures: invalid DID 400, unknown 404, unsupported method 501', async () => {
    expect(await t().resolveDocument(keys.verifier, 'not-a-did')).toMatchObject({ ok: false, status: 400 });
    expect(await t().resolveDocument(keys.verifier, 'did:credgate:local:1111111111111111111111')).toMatchObject({ ok: false, status: 404 });
    expect(await t().resolveDocument(keys.verifier, 'did:web:example.com')).toMatchObject({ ok: false, status: 501 });
    expect(unwrap(await t().resolution(keys.verifier, 'not-a-did')).didResolutionMetadata.error).toBe('invalidDid');
    expect(unwrap(await t().resolution(keys.verifier, 'did:key:zNotAKey')).didResolutionMetadata.error).toBe('invalidDid');
    expect(unwrap(await t().resolution(keys.verifier, 'did:credgate:local:1111111111111111111111')).didResolutionMetadata.error).toBe('notFound');
    expect(unwrap(await t().resolution(keys.verifier, 'did:web:example.com'))).toMatchObject({
      didDocument: null,
      didResolutionMetadata: { error: 'methodNotSupported' },
    });
    expect(await t().getDid(keys.verifier, 'not-a-did')).toMatchObject({ ok: false, status: 400 });
    expect(await t().getDid(keys.verifier, 'did:credgate:local:1111111111111111111111')).toMatchObject({ ok: false, status: 404 });
  });

  test('did:key is computed from the published vectors, never stored', async () => {
    const before = await server.app.db.prisma.did.count();
    for (const file of ['ed25519-x25519.json', 'secp256k1.json']) {
      const vectors = readSharedJson<DidKeyVectors>('vectors', 'did-key', file);
      const base58Vectors = Object.entries(vectors).filter(([, v]) => v.didDocument.verificationMethod[0]!.type !== 'JsonWebKey2020');
      expect(base58Vectors.length).toBeGreaterThan(0);
      for (const [did, v] of base58Vectors) {
        expect(unwrap(await t().resolveDocument(keys.verifier, did))).toEqual(v.didDocument);
        expect(unwrap(await t().resolution(keys.verifier, did)).didDocument).toEqual(v.didDocument);
      }
    }
    const kp = unwrap(await t().generateKeypair(keys.holder));
    secrets.push(kp.privateKey);
    const created = unwrap(await t().createDid(keys.holder, { method: 'key', publicKey: kp.publicKey })).document;
    expect(created.id).toMatch(/^did:key:zQ3s[1-9A-HJ-NP-Za-km-z]+$/);
    expect(created.publicKey[0]).toMatchObject({ publicKeyHex: kp.publicKey, type: 'Secp256k1VerificationKey2018' });
    expect(unwrap(await t().getDid(keys.holder, created.id))).toEqual(created);
    const resolved = unwrap(await t().resolveDocument(keys.verifier, created.id));
    expect(resolved).toMatchObject({ id: created.id, verificationMethod: [{ type: 'EcdsaSecp256k1VerificationKey2019' }] });
    expect(await server.app.db.prisma.did.count()).toBe(before);
  });

  test('Family A: generateKeyPair (Ed25519, not stored) and user DID', async () => {
    const storedKeys = await server.app.db.prisma.managedKey.count();
    const kp = unwrap(await t().generateUserKeyPair(keys.holder));
    secrets.push(kp.privateKey);
    const sk = Buffer.from(kp.privateKey, 'base64');
    expect(sk).toHaveLength(32);
    expect(Buffer.from(ed25519.getPublicKey(sk)).toString('base64')).toBe(kp.publicKey);
    expect(await server.app.db.prisma.managedKey.count()).toBe(storedKeys);

    const did = unwrap(await t().userDid(keys.holder, kp.publicKey));
    expect(did).toMatch(/^did:credgate:local:([1-9A-HJ-NP-Za-km-z]+);credgate:local:fid=0\.0\.\d+$/);
    expect(unwrap(await t().userDid(keys.holder, kp.publicKey))).toBe(did);
    const w3c = unwrap(await t().resolveDocument(keys.verifier, did));
    const plain = did.split(';')[0]!;
    expect(w3c).toMatchObject({
      id: plain,
      verificationMethod: [
        { id: `${plain}#keys-1`, type: 'Ed25519VerificationKey2018', publicKeyBase58: base58.encode(Buffer.from(kp.publicKey, 'base64')) },
        { id: `${plain}#did-root-key`, type: 'Ed25519VerificationKey2018' },
      ],
    });
    expect(w3c['alsoKnownAs']).toContain(did);
  });

  test('bad input is a 400 and stores nothing', async () => {
    const dids = await server.app.db.prisma.did.count();
    const logs = await server.app.db.prisma.ledgerLog.count();
    for (const publicKey of ['zz', '02' + '00'.repeat(32), 'abc', '04' + 'ff'.repeat(64), '']) {
      expect(await t().createDid(keys.holder, { method: 'credgate', publicKey })).toMatchObject({ ok: false, status: 400 });
    }
    const kp = unwrap(await t().generateKeypair(keys.holder));
    secrets.push(kp.privateKey);
    expect(await t().createDid(keys.holder, { method: 'web', publicKey: kp.publicKey })).toMatchObject({ ok: false, status: 400 });
    expect(await t().createDid(keys.holder, { method: 'credgate', publicKey: kp.publicKey, keyType: 'rsa' })).toMatchObject({ ok: false, status: 400 });
    for (const publicKey of ['not base64!', Buffer.alloc(31).toString('base64'), Buffer.alloc(32).toString('base64')]) {
      expect(await t().userDid(keys.holder, publicKey)).toMatchObject({ ok: false, status: 400 });
    }
    expect(await server.app.db.prisma.did.count()).toBe(dids);
    expect(await server.app.db.prisma.ledgerLog.count()).toBe(logs);
  });

  test('authentication: no key, unknown key, malformed key and revoked key are 401', async () => {
    for (const key of [undefined, 'cgk_' + '0'.repeat(32) + '_' + 'A'.repeat(43), 'garbage', keys.revoked]) {
      expect(await t().generateKeypair(key)).toMatchObject({ ok: false, status: 401 });
      expect(await t().resolution(key, 'did:web:example.com')).toMatchObject({ ok: false, status: 401 });
      expect(await t().generateUserKeyPair(key)).toMatchObject({ ok: false, status: 401 });
      expect(await t().getDid(key, 'did:credgate:local:1111111111111111111111')).toMatchObject({ ok: false, status: 401 });
    }
  });

  test('authorization: a key without the needed scope is 403; admin passes', async () => {
    expect(await t().generateKeypair(keys.verifier)).toMatchObject({ ok: false, status: 403 });
    expect(await t().createDid(keys.verifier, { method: 'credgate', publicKey: '02' + '11'.repeat(32) })).toMatchObject({ ok: false, status: 403 });
    expect(await t().generateUserKeyPair(keys.verifier)).toMatchObject({ ok: false, status: 403 });
    expect(await t().userDid(keys.verifier, Buffer.alloc(32, 1).toString('base64'))).toMatchObject({ ok: false, status: 403 });
    const admin = unwrap(await t().generateKeypair(server.adminKey));
    secrets.push(admin.privateKey);
    expect(admin.publicKey).toMatch(/^0[23]/);
  });

  test('tenants never see each other: another tenant gets 404, and its own DID for the same key', async () => {
    const kp = unwrap(await t().generateKeypair(keys.issuer));
    secrets.push(kp.privateKey);
    const mine = unwrap(await t().createDid(keys.issuer, { method: 'credgate', publicKey: kp.publicKey })).document;
    expect(await t().getDid(keys.other, mine.id)).toMatchObject({ ok: false, status: 404 });
    const theirs = unwrap(await t().createDid(keys.other, { method: 'credgate', publicKey: kp.publicKey }));
    expect(theirs.created).toBe(true);
    expect(theirs.document.id).not.toBe(mine.id);
    expect(unwrap(await t().getDid(keys.issuer, mine.id))).toEqual(mine);
    // DIDs are public identifiers: anyone may resolve them.
    expect(unwrap(await t().resolveDocument(keys.other, mine.id))['id']).toBe(mine.id.slice(0, mine.id.lastIndexOf(':')));
  });
});

test('no private key or API key ever reached a log line', () => {
  const text = server.logs.text();
  expect(server.logs.lines.length).toBeGreaterThan(50);
  expect(secrets.length).toBeGreaterThan(20);
  for (const s of secrets) expect(text).not.toContain(s);
});
