import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { CredgateUpload } from '../../src/sdk';
import { useTestServer } from '../support/harness';
import { request } from '../support/http';
import { sharedPath } from '../support/shared';
import { type Outcome, gqlOutcome } from '../support/transports';
import { FAMILY_A_TRANSPORTS, consent, newHolder, newParty, schemaBody, subject, unwrap } from '../support/family-a-fixtures';

jest.setTimeout(45_000);

const photo = (name: string): Buffer => readFileSync(sharedPath('faces', name));
/** Above every fixture (the largest is ≈ 596 kB); `oversize` is built past it. */
const MAX_IMAGE_BYTES = 700_000;
/** A real JPEG padded past the limit (JPEG decoders ignore bytes after the end marker). */
const oversize = (): Buffer => Buffer.concat([photo('obama_3.jpg'), Buffer.alloc(MAX_IMAGE_BYTES, 0)]);

const server = useTestServer(() => ({ env: { faces: { threshold: 0.6, maxImageBytes: MAX_IMAGE_BYTES, workers: 2 } } }));

interface Face {
  pos: string;
  template: string;
  templateCreationResult: boolean;
  faceCount: number;
  reason?: string | null;
}
interface Pair {
  galleryFace: Face;
  probeFace: Face;
}
interface FaceTransport {
  name: string;
  createTemplates(key: string, original: Buffer | string, selfie: Buffer | null): Promise<Outcome<Pair>>;
  compare(key: string, a: string, b: string): Promise<Outcome<{ distance: number; score: number; match: boolean; threshold: number }>>;
  verifyWithSelfie(key: string, headers: { publicKey: string; userSignature: string }, body: Record<string, unknown>, selfie: Buffer): Promise<Outcome<{ success: boolean; data: Record<string, any> }>>;
}

function restFaces(prefix: '' | '/api', method: 'POST' | 'PUT', path: string): FaceTransport {
  const multipart = async (key: string, url: string, parts: Record<string, Buffer | string>, headers: Record<string, string> = {}, verb = 'POST') => {
    const form = new FormData();
    for (const [k, v] of Object.entries(parts)) {
      if (typeof v === 'string') form.append(k, v);
      else form.append(k, new Blob([v], { type: 'image/jpeg' }), `${k}.jpg`);
    }
    const res = await fetch(server.baseUrl + prefix + url, { method: verb, headers: { 'x-api-key': key, ...headers }, body: form });
    return { status: res.status, json: (await res.json()) as any };
  };
  const envelope = <T>(r: { status: number; json: any }, message?: string): Outcome<T> => {
    if (r.status >= 400) {
      expect(r.json).toMatchObject({ success: false, status: r.status, code: expect.any(String) });
      return { ok: false, status: r.status, code: r.json.code };
    }
    expect(r.json).toMatchObject({ success: true, status: 200 });
    if (message) expect(r.json.message).toBe(message);
    return { ok: true, data: r.json.data as T };
  };
  return {
    name: `REST ${method} ${prefix}${path}`,
    createTemplates: async (key, original, selfie) => {
      const parts: Record<string, Buffer | string> = { originalPhoto: typeof original === 'string' ? Buffer.from(original) : original };
      if (selfie) parts['selfiePhoto'] = selfie;
      return envelope<Pair>(await multipart(key, path, parts, {}, method), 'Templates Created');
    },
    compare: async (key, a, b) => {
      const r = await request(server.baseUrl, 'POST', `${prefix}/user/image/compare`, { headers: { 'x-api-key': key }, body: { templateA: a, templateB: b } });
      return envelope(r);
    },
    verifyWithSelfie: async (key, headers, body, selfie) => {
      const r = await multipart(key, '/verifier/verify', { request: JSON.stringify(body), selfiePhoto: selfie }, headers);
      if (r.status >= 400) return envelope(r);
      return { ok: true, data: { success: r.json.success, data: r.json.data } };
    },
  };
}

const graphqlFaces: FaceTransport = {
  name: 'GraphQL',
  createTemplates: (key, original, selfie) =>
    gqlOutcome(async () => {
      const up = (b: Buffer | string | null, n: string) => new CredgateUpload(typeof b === 'string' ? Buffer.from(b) : (b ?? Buffer.alloc(0)), `${n}.jpg`, 'image/jpeg');
      return (await server.sdk(key).createFaceTemplates({ originalPhoto: up(original, 'o'), selfiePhoto: up(selfie, 's') })).createFaceTemplates as Pair;
    }),
  compare: (key, templateA, templateB) => gqlOutcome(async () => (await server.sdk(key).compareFaces({ templateA, templateB })).compareFaces),
  verifyWithSelfie: (key, headers, body, selfie) =>
    gqlOutcome(async () => {
      const r = (await server.sdk(key).verifyCredential({ input: { ...headers, ...(body as object) } as never, selfiePhoto: new CredgateUpload(selfie, 'selfie.jpg', 'image/jpeg') })).verifyCredential;
      return { success: r.success, data: r.data as Record<string, any> };
    }),
};

const TRANSPORTS: FaceTransport[] = [
  restFaces('', 'POST', '/user/image/createTemplate'),
  restFaces('/api', 'PUT', '/user/createTemplate'),
  graphqlFaces,
];

describe.each(TRANSPORTS.map((t) => [t.name, t] as const))('face templates through %s', (_name, t) => {
  let key: string;
  const templates = new Map<string, string>();
  const make = async (a: string, b: string): Promise<Pair> => {
    const pair = unwrap(await t.createTemplates(key, photo(a), photo(b)));
    if (pair.galleryFace.templateCreationResult) templates.set(a, pair.galleryFace.template);
    if (pair.probeFace.templateCreationResult) templates.set(b, pair.probeFace.template);
    return pair;
  };

  beforeAll(async () => {
    key = await server.apiKey(`faces-${randomBytes(3).toString('hex')}`, ['holder', 'issuer', 'verifier']);
  });

  test('originalPhoto becomes galleryFace and selfiePhoto probeFace', async () => {
    const pair = await make('obama_1.jpg', 'obama_4.jpg');
    for (const f of [pair.galleryFace, pair.probeFace]) {
      expect(f).toMatchObject({ pos: 'F', templateCreationResult: true, faceCount: 1 });
      expect(f.template).toMatch(/^[A-Za-z0-9+/]+=*$/);
    }
    expect(pair.galleryFace.template).not.toBe(pair.probeFace.template);
    await make('obama_2.jpg', 'biden_2.jpg');
    await make('obama_3.jpg', 'biden_1.jpg');
  });

  test('no face: templateCreationResult false with a reason; two faces: the count is reported', async () => {
    const pair = unwrap(await t.createTemplates(key, photo('noface_landscape.jpg'), photo('multi_obama_biden.jpg')));
    expect(pair.galleryFace).toMatchObject({ templateCreationResult: false, template: '', faceCount: 0, reason: expect.stringMatching(/face/) });
    expect(pair.probeFace).toMatchObject({ templateCreationResult: true, faceCount: 2 });
  });

  test('every Obama pair matches, every Obama–Biden pair does not', async () => {
    const obama = ['obama_1.jpg', 'obama_2.jpg', 'obama_3.jpg', 'obama_4.jpg'];
    const biden = ['biden_1.jpg', 'biden_2.jpg'];
    const pairs: [string, string, boolean][] = [];
    obama.forEach((a, i) => obama.slice(i + 1).forEach((b) => pairs.push([a, b, true])));
    obama.forEach((a) => biden.forEach((b) => pairs.push([a, b, false])));
    expect(pairs).toHaveLength(14);
    for (const [a, b, same] of pairs) {
      const m = unwrap(await t.compare(key, templates.get(a)!, templates.get(b)!));
      expect({ a, b, match: m.match }).toEqual({ a, b, match: same });
      expect(m.threshold).toBe(0.6);
      expect(m.score).toBeCloseTo(Math.max(0, 1 - m.distance), 3);
    }
  });

  test('bad uploads: not an image, corrupt, too large, missing part — each a 4xx with a code', async () => {
    expect(await t.createTemplates(key, 'this is text, not a photo', photo('obama_1.jpg'))).toMatchObject({ ok: false, status: 400 });
    expect(await t.createTemplates(key, photo('obama_1.jpg').subarray(0, 2000), photo('obama_4.jpg'))).toMatchObject({ ok: false, status: 400 });
    expect(await t.createTemplates(key, oversize(), photo('obama_4.jpg'))).toMatchObject({ ok: false, status: 413 });
    expect(await t.createTemplates(key, photo('obama_1.jpg'), null)).toMatchObject({ ok: false, status: 400 });
  });

  test('a credential bound to obama_1 verifies with obama_4 and not with biden_2', async () => {
    const fa = (await newParty(server, t.name.startsWith('GraphQL') ? 'GraphQL' : 'REST'));
    const h = await newHolder(fa);
    const issuerDid = unwrap(await fa.fa.issuerDid(fa.issuerKey));
    const schemaName = `Face${randomBytes(3).toString('hex')}`;
    unwrap(await fa.fa.createSchema(fa.issuerKey, schemaBody(schemaName)));
    const headers = await consent(fa, h, issuerDid, subject());
    const issued = unwrap(await fa.fa.issue(fa.issuerKey, headers, { schemaName: `${schemaName}:1`, credentialSubject: subject(), faceTemplate: templates.get('obama_1.jpg') } as never));
    // The credential binds the face by a salted commitment; the template itself is never shown.
    expect(issued.verifiableCredential['biometrics']).toEqual({ face: expect.stringMatching(/^sha256-salted:[A-Za-z0-9_-]{43}$/), iris: null, finger: null });
    expect(JSON.stringify(issued)).not.toContain(templates.get('obama_1.jpg')!.slice(0, 40));
    // At rest the template exists only inside the sealed record, never in clear.
    const row = await server.app.db.prisma.issuedCredential.findUniqueOrThrow({ where: { id: issued.verifiableCredential['id'] } });
    expect(JSON.stringify(row.document)).not.toContain(templates.get('obama_1.jpg')!.slice(0, 40));
    expect(Buffer.from(row.sealedSubject).toString('latin1')).not.toContain(templates.get('obama_1.jpg')!.slice(0, 40));
    const v = { publicKey: h.publicKey, userSignature: headers.userSignature };
    const body = { credentials: issued.verifiableCredential };

    const yes = unwrap(await t.verifyWithSelfie(fa.verifierKey, v, body, photo('obama_4.jpg')));
    expect(yes.data['reasons']).toEqual([]);
    expect(yes.success).toBe(true);
    expect(yes.data['biometricMatchScore']).toBe('Match');
    const no = unwrap(await t.verifyWithSelfie(fa.verifierKey, v, body, photo('biden_2.jpg')));
    expect(no.success).toBe(false);
    expect(no.data['biometricMatchScore']).toBe('No Match');
    // A probe template works too; without a probe nothing is checked.
    const byTemplate = unwrap(await fa.fa.verify(fa.verifierKey, v, { ...body, probeTemplate: templates.get('obama_2.jpg') }));
    expect(byTemplate.data.biometricMatchScore).toMatch(/^Match/);
    expect(unwrap(await fa.fa.verify(fa.verifierKey, v, body)).data.biometricMatchScore).toBe('No Check Performed');

    // Encrypted: the credential carries a commitment as well; the check still runs.
    const enc = unwrap(await fa.fa.issue(fa.issuerKey, headers, { schemaName: `${schemaName}:1`, isEncrypted: true, credentialSubject: subject(), faceTemplate: templates.get('obama_1.jpg') } as never));
    expect(enc.verifiableCredential['biometrics'].face).not.toBe(templates.get('obama_1.jpg'));
    const encYes = unwrap(await t.verifyWithSelfie(fa.verifierKey, v, { credentials: enc.verifiableCredential }, photo('obama_2.jpg')));
    expect(encYes.data['biometricMatchScore']).toMatch(/^Match/);
  });
});

test('REST: a non-multipart body is 415; compare accepts a template and a photo', async () => {
  const key = await server.apiKey(`faces-rest-${randomBytes(3).toString('hex')}`, ['holder']);
  const json = await request(server.baseUrl, 'POST', '/user/image/createTemplate', { headers: { 'x-api-key': key }, body: { originalPhoto: 'x' } });
  expect(json).toMatchObject({ status: 415, json: { success: false, code: 'UNSUPPORTED_MEDIA_TYPE' } });
  const pair = await TRANSPORTS[0]!.createTemplates(key, photo('obama_1.jpg'), photo('biden_2.jpg'));
  const templateA = (pair as { ok: true; data: Pair }).data.galleryFace.template;
  for (const [name, same] of [['obama_4.jpg', true], ['biden_1.jpg', false]] as const) {
    const form = new FormData();
    form.append('templateA', templateA);
    form.append('photo', new Blob([photo(name)], { type: 'image/jpeg' }), name);
    const res = await fetch(`${server.baseUrl}/user/image/compare`, { method: 'POST', headers: { 'x-api-key': key }, body: form });
    const body = (await res.json()) as { data: { match: boolean } };
    expect({ name, status: res.status, match: body.data.match }).toEqual({ name, status: 200, match: same });
  }
  const sdkMatch = (await server.sdk(key).compareFaces({ templateA, photo: new CredgateUpload(photo('obama_2.jpg'), 'o2.jpg', 'image/jpeg') })).compareFaces;
  expect(sdkMatch.match).toBe(true);
});

test('/healthz keeps answering while a batch of template requests runs', async () => {
  const key = await server.apiKey(`faces-health-${randomBytes(3).toString('hex')}`, ['holder']);
  const t = TRANSPORTS[0]!;
  let done = false;
  let answered = 0;
  const batch = Promise.all(Array.from({ length: 4 }, () => t.createTemplates(key, photo('obama_1.jpg'), photo('biden_2.jpg')))).finally(() => {
    done = true;
  });
  while (!done) {
    const r = await request(server.baseUrl, 'GET', '/healthz');
    if (r.status === 200) answered++;
  }
  const results = await batch;
  expect(results.every((r) => r.ok)).toBe(true);
  expect(answered).toBeGreaterThan(20);
});

test('no template ever reached a log line', () => {
  expect(server.logs.text()).not.toMatch(/Q0dGV|"template":/);
});
