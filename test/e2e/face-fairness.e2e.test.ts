import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CredgateUpload } from '../../src/sdk';
import { useTestServer } from '../support/harness';
import { sharedPath } from '../support/shared';
import { gqlOutcome } from '../support/transports';

/**
 * Attack: one tenant's 12 face uploads (two photos each) fill the face engine's queue, and every
 * other tenant's upload is refused with 503 until the flood drains. Now the flooding tenant's
 * excess is refused (503 + Retry-After) while a second tenant is still admitted and served.
 * One inference worker (the harness default), so the queue really is full.
 */
const photo = (name: string): Buffer => readFileSync(sharedPath('faces', name));

const server = useTestServer();

async function uploadRest(key: string): Promise<{ status: number; retryAfter: string | null }> {
  const form = new FormData();
  form.append('originalPhoto', new Blob([photo('obama_1.jpg')], { type: 'image/jpeg' }), 'o.jpg');
  form.append('selfiePhoto', new Blob([photo('obama_2.jpg')], { type: 'image/jpeg' }), 's.jpg');
  const res = await fetch(`${server.baseUrl}/user/image/createTemplate`, { method: 'POST', headers: { 'x-api-key': key }, body: form });
  await res.arrayBuffer();
  return { status: res.status, retryAfter: res.headers.get('retry-after') };
}

test("a second tenant's face uploads (REST and GraphQL) are served while the first tenant's queue is full", async () => {
  const flooder = await server.apiKey(`faces-flood-${randomBytes(3).toString('hex')}`, ['holder']);
  const other = await server.apiKey(`faces-other-${randomBytes(3).toString('hex')}`, ['holder']);

  const flood = Array.from({ length: 12 }, () => uploadRest(flooder));
  // Wait until the flood has filled the engine: one of its uploads was turned away.
  await new Promise<void>((resolve) => {
    for (const p of flood) void p.then((r) => r.status === 503 && resolve());
    void Promise.all(flood).then(() => resolve());
  });

  const [rest, graphql] = await Promise.all([
    uploadRest(other),
    gqlOutcome(async () => {
      const up = (name: string) => new CredgateUpload(photo(name), name, 'image/jpeg');
      return (await server.sdk(other).createFaceTemplates({ originalPhoto: up('biden_1.jpg'), selfiePhoto: up('biden_2.jpg') })).createFaceTemplates;
    }),
  ]);
  expect(rest.status).toBe(200);
  expect(graphql.ok).toBe(true);
  if (graphql.ok) expect(graphql.data.galleryFace.templateCreationResult).toBe(true);

  const outcomes = await Promise.all(flood);
  const refused = outcomes.filter((o) => o.status === 503);
  expect(refused.length).toBeGreaterThan(0);
  expect(outcomes.filter((o) => o.status === 200).length).toBeGreaterThan(0);
  expect(refused.length + outcomes.filter((o) => o.status === 200).length).toBe(12);
  for (const r of refused) expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
}, 240_000);
