import os from 'node:os';
import { AppError } from '../errors';
import { DEFAULT_MAX_IMAGE_BYTES, DEFAULT_MAX_INPUT_PIXELS, DEFAULT_MAX_SIDE, decodeImage, imageTooLarge, notAnImage } from './decode';
import { DEFAULT_MATCH_THRESHOLD, assertThreshold, matchDescriptors } from './match';
import { resolveFaceModelPaths } from './model';
import { FaceWorkerPool } from './pool';
import { FairScheduler } from './fair-scheduler';
import { currentTenant } from '../fairness/tenant-context';
import { decodeTemplate, encodeTemplate } from './template-format';
import type { FaceEngine, FaceEngineOptions, FaceMatch, FaceTemplateResult } from './types';

export const DEFAULT_MIN_CONFIDENCE = 0.5;
export const NO_FACE_DETECTED = 'no_face_detected';

function positiveInteger(name: string, value: number | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < min) throw new RangeError(`${name} must be an integer >= ${min}`);
  return value;
}

/** Worker count: all cores by default, never more than the cores, never fewer than one. */
export function poolSize(workers?: number): number {
  const cores = os.availableParallelism();
  const wanted = workers === undefined ? cores : Math.floor(workers);
  return Math.max(1, Math.min(cores, Number.isFinite(wanted) ? wanted : cores));
}

/**
 * The face engine. createFaceEngine is cheap and synchronous: no worker starts and no model loads
 * until the first createTemplate (or warmup()), so compare() and an unused engine cost nothing.
 *
 * createTemplate: size check -> admission (queue bound) -> sharp decode on the main thread (libuv
 * threads) -> one pooled worker runs SSD MobileNet V1 detection, picks the largest box, runs the
 * 68-point landmark net and the 128-d recognition net on that face only -> the descriptor is
 * serialised as a v1 template. Nothing here logs; templates and descriptors are biometric data.
 */
export function createFaceEngine(options: FaceEngineOptions = {}): FaceEngine {
  const threshold = assertThreshold(options.threshold ?? DEFAULT_MATCH_THRESHOLD);
  const size = poolSize(options.workers);
  const decodeOptions = {
    maxImageBytes: positiveInteger('maxImageBytes', options.maxImageBytes, DEFAULT_MAX_IMAGE_BYTES),
    maxSide: positiveInteger('maxSide', options.maxSide, DEFAULT_MAX_SIDE, 32),
    maxInputPixels: positiveInteger('maxInputPixels', options.maxInputPixels, DEFAULT_MAX_INPUT_PIXELS),
  };
  const maxQueue = positiveInteger('maxQueue', options.maxQueue, 8 * size, 0);
  const minConfidence = options.minConfidence ?? DEFAULT_MIN_CONFIDENCE;
  if (!(minConfidence > 0 && minConfidence < 1)) throw new RangeError('minConfidence must be in (0, 1)');

  const pool = new FaceWorkerPool(size, { ...resolveFaceModelPaths(), minConfidence });
  const capacity = size + maxQueue;
  // Admission and order across tenants (src/biometrics/fair-scheduler.ts). Up to two jobs per
  // worker are handed on (one computing, one decoding), so the pool's own FIFO never holds more
  // than one job per worker ahead of another tenant's.
  const scheduler = new FairScheduler({
    concurrency: Math.min(2 * size, capacity),
    capacity,
    ...(options.tenantShare !== undefined ? { perOwnerCap: positiveInteger('tenantShare', options.tenantShare, capacity) } : {}),
    retryAfterSeconds: 2,
  });
  let closed = false;

  async function createTemplate(image: Uint8Array): Promise<FaceTemplateResult> {
    if (closed) throw new AppError('SERVICE_UNAVAILABLE', 'face engine closed');
    if (!(image instanceof Uint8Array)) throw notAnImage();
    if (image.byteLength > decodeOptions.maxImageBytes) throw imageTooLarge(`more than ${decodeOptions.maxImageBytes} bytes`);
    return scheduler.submit(currentTenant(), async (): Promise<FaceTemplateResult> => {
      const decoded = await decodeImage(image, decodeOptions);
      const { faceCount, descriptor } = await pool.run(decoded);
      if (!descriptor) return { templateCreationResult: false, template: '', faceCount, reason: NO_FACE_DETECTED };
      return { templateCreationResult: true, template: encodeTemplate(descriptor), faceCount };
    });
  }

  function compare(a: string, b: string): FaceMatch {
    return matchDescriptors(decodeTemplate(a), decodeTemplate(b), threshold);
  }

  return {
    createTemplate,
    compare,
    warmup: () => pool.warmup(),
    close: async () => {
      closed = true;
      scheduler.drain(new AppError('SERVICE_UNAVAILABLE', 'face engine closed'));
      await pool.close();
    },
  };
}
