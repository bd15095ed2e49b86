/**
 * The face engine on the real photos of test/fixtures/faces (see SOURCES.md there), with the
 * real models and workers: no mocks. One engine for the whole file; the 8 templates are computed
 * once in beforeAll.
 *
 * Distances measured here (face-api 1.7.15, WASM backend, maxSide 1024):
 *   Obama pairs 0.34-0.46, biden_1/biden_2 0.39, Obama-Biden 0.79-0.89. The largest face of
 *   multi_obama_biden.jpg is Biden's (0.08 from biden_1, the same shot).
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { AppError } from '../../src/errors';
import { FACE_MODEL_ID, type FaceEngine, type FaceTemplateResult, createFaceEngine, encodeTemplate, parseTemplateBytes } from '../../src/biometrics';
import { sharedPath } from '../support/shared';

jest.setTimeout(180_000);

const PHOTOS = ['obama_1', 'obama_2', 'obama_3', 'obama_4', 'biden_1', 'biden_2', 'noface_landscape', 'multi_obama_biden'] as const;
type Photo = (typeof PHOTOS)[number];
const OBAMA: Photo[] = ['obama_1', 'obama_2', 'obama_3', 'obama_4'];
const BIDEN: Photo[] = ['biden_1', 'biden_2'];

const bytes = (name: Photo): Buffer => readFileSync(sharedPath('faces', `${name}.jpg`));
const pairs = <T>(xs: readonly T[]): [T, T][] => xs.flatMap((a, i) => xs.slice(i + 1).map((b): [T, T] => [a, b]));

let engine: FaceEngine;
const results = {} as Record<Photo, FaceTemplateResult>;

async function expectAppError(p: Promise<unknown> | (() => unknown), code: string, detail?: string): Promise<void> {
  let error: unknown;
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  if (detail !== undefined) expect((error as AppError).details?.map((d) => d.message)).toContain(detail);
}

beforeAll(async () => {
  engine = createFaceEngine({ workers: 2 });
  const done = await Promise.all(PHOTOS.map((p) => engine.createTemplate(bytes(p))));
  PHOTOS.forEach((p, i) => {
    results[p] = done[i] as FaceTemplateResult;
  });
});

afterAll(async () => {
  await engine?.close();
});

describe('templates', () => {
  it.each(OBAMA.concat(BIDEN))('%s yields one face and a v1 template of this model', (p) => {
    const r = results[p];
    expect(r).toEqual({ templateCreationResult: true, template: expect.any(String), faceCount: 1 });
    const parsed = parseTemplateBytes(new Uint8Array(Buffer.from(r.template, 'base64')));
    expect(parsed.version).toBe(1);
    expect(parsed.modelId).toBe(FACE_MODEL_ID);
    expect(parsed.descriptor).toHaveLength(128);
  });

  it('noface_landscape.jpg: no template, with a reason, not an error', () => {
    expect(results.noface_landscape).toEqual({ templateCreationResult: false, template: '', faceCount: 0, reason: 'no_face_detected' });
  });

  it('multi_obama_biden.jpg: two faces reported, the largest one used', () => {
    const r = results.multi_obama_biden;
    expect(r.templateCreationResult).toBe(true);
    expect(r.faceCount).toBe(2);
    // The larger box is Biden's.
    expect(engine.compare(r.template, results.biden_1.template).match).toBe(true);
    expect(engine.compare(r.template, results.obama_1.template).match).toBe(false);
  });

  it('is deterministic: the same photo gives the same template', async () => {
    const again = await engine.createTemplate(bytes('obama_4'));
    expect(again.template).toBe(results.obama_4.template);
  });
});

describe('matching', () => {
  it.each(pairs(OBAMA))('%s and %s match', (a, b) => {
    const m = engine.compare(results[a].template, results[b].template);
    expect(m.match).toBe(true);
    expect(m.distance).toBeLessThanOrEqual(0.6);
    expect(m.threshold).toBe(0.6);
    expect(m.score).toBeCloseTo(Math.max(0, 1 - m.distance), 4);
  });

  it('biden_1 and biden_2 match', () => {
    expect(engine.compare(results.biden_1.template, results.biden_2.template).match).toBe(true);
  });

  const crossPairs = OBAMA.flatMap((o) => BIDEN.map((b): [Photo, Photo] => [o, b]));
  it.each(crossPairs)('%s and %s do not match', (o, b) => {
    const m = engine.compare(results[o].template, results[b].template);
    expect(m.match).toBe(false);
    expect(m.distance).toBeGreaterThan(0.6);
  });

  it('a template compared with itself: distance 0, score 1', () => {
    expect(engine.compare(results.obama_1.template, results.obama_1.template)).toEqual({ distance: 0, score: 1, match: true, threshold: 0.6 });
  });

  it('the threshold is configurable', async () => {
    const strict = createFaceEngine({ threshold: 0.3, workers: 1 });
    try {
      const m = strict.compare(results.obama_1.template, results.obama_2.template);
      expect(m.threshold).toBe(0.3);
      expect(m.match).toBe(m.distance <= 0.3);
      expect(m.match).toBe(false);
    } finally {
      await strict.close();
    }
  });

  it('refuses a template from another model id', async () => {
    const descriptor = parseTemplateBytes(new Uint8Array(Buffer.from(results.obama_1.template, 'base64'))).descriptor;
    const foreign = encodeTemplate(descriptor, 'face-api/ssd_mobilenetv1+landmark68+recognition@0.0.1');
    await expectAppError(() => engine.compare(results.obama_1.template, foreign), 'INVALID_INPUT', 'other_model');
    await expectAppError(() => engine.compare(foreign, results.obama_1.template), 'INVALID_INPUT', 'other_model');
  });

  it('refuses malformed templates', async () => {
    await expectAppError(() => engine.compare(results.obama_1.template, 'not base64!'), 'INVALID_INPUT', 'malformed_template');
    await expectAppError(() => engine.compare(results.obama_1.template, results.obama_1.template.slice(0, 100)), 'INVALID_INPUT', 'malformed_template');
    await expectAppError(() => engine.compare('', results.obama_1.template), 'INVALID_INPUT', 'malformed_template');
  });
});

describe('decoding', () => {
  it('applies the EXIF orientation before detection', async () => {
    // Pixels stored turned 90 degrees counter-clockwise, with orientation 6 ("rotate 90 CW to show").
    const sideways = await sharp(bytes('obama_4')).rotate(270).withMetadata({ orientation: 6 }).jpeg({ quality: 95 }).toBuffer();
    expect((await sharp(sideways).metadata()).orientation).toBe(6);
    const r = await engine.createTemplate(sideways);
    expect(r.templateCreationResult).toBe(true);
    expect(r.faceCount).toBe(1);
    expect(engine.compare(r.template, results.obama_4.template).distance).toBeLessThan(0.1);
  });

  it('takes a PNG with an alpha channel and a greyscale JPEG', async () => {
    const rgba = await sharp(bytes('obama_1')).ensureAlpha(0.5).png().toBuffer();
    expect((await sharp(rgba).metadata()).channels).toBe(4);
    const grey = await sharp(bytes('obama_1')).greyscale().toColourspace('b-w').jpeg().toBuffer();
    expect((await sharp(grey).metadata()).channels).toBe(1);
    for (const image of [rgba, grey]) {
      const r = await engine.createTemplate(image);
      expect(r.templateCreationResult).toBe(true);
      expect(engine.compare(r.template, results.obama_2.template).match).toBe(true);
    }
  });
});

describe('bad input', () => {
  it('bytes that are not an image: INVALID_INPUT not_an_image', async () => {
    await expectAppError(engine.createTemplate(Buffer.from('this is plain text, not a photo')), 'INVALID_INPUT', 'not_an_image');
    await expectAppError(engine.createTemplate(new Uint8Array(0)), 'INVALID_INPUT', 'not_an_image');
    await expectAppError(engine.createTemplate(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), 'INVALID_INPUT', 'not_an_image');
  });

  it('a truncated JPEG: INVALID_INPUT corrupt_image', async () => {
    const jpeg = bytes('obama_1');
    await expectAppError(engine.createTemplate(jpeg.subarray(0, Math.floor(jpeg.length / 2))), 'INVALID_INPUT', 'corrupt_image');
    await expectAppError(engine.createTemplate(jpeg.subarray(0, 200)), 'INVALID_INPUT', 'corrupt_image');
  });

  it('a file over the size limit: PAYLOAD_TOO_LARGE too_large (413)', async () => {
    const small = createFaceEngine({ maxImageBytes: 100_000, workers: 1 });
    try {
      const big = bytes('obama_1'); // 279,922 bytes
      let error: unknown;
      await small.createTemplate(big).catch((e: unknown) => (error = e));
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('PAYLOAD_TOO_LARGE');
      expect((error as AppError).status).toBe(413);
      expect((error as AppError).details).toEqual([{ field: 'image', message: 'too_large' }]);
      // The default limit is 8 MiB.
      await expectAppError(engine.createTemplate(new Uint8Array(8 * 1024 * 1024 + 1)), 'PAYLOAD_TOO_LARGE', 'too_large');
    } finally {
      await small.close();
    }
  });

  it('a closed engine refuses work with SERVICE_UNAVAILABLE, also when closed while loading', async () => {
    const e2 = createFaceEngine({ workers: 1 });
    await e2.close();
    await expectAppError(e2.createTemplate(bytes('obama_4')), 'SERVICE_UNAVAILABLE');
    const e3 = createFaceEngine({ workers: 1 });
    // Settled into values at once, so the rejections are handled when close() causes them.
    const warming = e3.warmup().then(() => 'loaded', (e: unknown) => e);
    const pending = e3.createTemplate(bytes('obama_4')).then(() => 'computed', (e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50)); // let the decode finish and the job queue
    await e3.close();
    for (const outcome of await Promise.all([warming, pending])) {
      expect(outcome).toBeInstanceOf(AppError);
      expect((outcome as AppError).code).toBe('SERVICE_UNAVAILABLE');
    }
  });
});

describe('off the request path', () => {
  it('the event loop keeps turning while a batch of templates computes', async () => {
    const batch = [...OBAMA, ...BIDEN, ...OBAMA, ...BIDEN].map((p) => bytes(p));
    let ticks = 0;
    let running = true;
    const tick = (): void => {
      if (!running) return;
      ticks++;
      setTimeout(tick, 1);
    };
    setTimeout(tick, 1);
    let pings = 0;
    const ping = (): void => {
      if (!running) return;
      pings++;
      setImmediate(ping);
    };
    setImmediate(ping);
    try {
      const out = await Promise.all(batch.map((b) => engine.createTemplate(b)));
      expect(out.every((r) => r.templateCreationResult)).toBe(true);
    } finally {
      running = false;
    }
    // 12 photos take seconds on 2 cores; a blocked loop would manage only a handful of turns.
    expect(ticks).toBeGreaterThan(100);
    expect(pings).toBeGreaterThan(100);
  });
});
