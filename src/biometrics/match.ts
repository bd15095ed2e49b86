import type { FaceMatch } from './types';

/** Default decision threshold on the euclidean distance (face-api / dlib convention). */
export const DEFAULT_MATCH_THRESHOLD = 0.6;

/** Euclidean distance between two descriptors, accumulated in double precision. */
export function euclideanDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new RangeError('descriptors differ in length');
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] as number) - (b[i] as number);
    sum += d * d;
  }
  return Math.sqrt(sum);
}

const round = (x: number, decimals: number): number => {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
};

/**
 * The match decision, defined once:
 *   distance = euclidean distance of the two 128-d descriptors, rounded to 6 decimals
 *   match    = distance <= threshold                       (default threshold 0.6)
 *   score    = max(0, 1 - distance), rounded to 4 decimals (1 = identical; at the default
 *              threshold a match means score >= 0.4)
 * The decision uses the rounded distance that is reported, so a client can always re-derive it.
 */
export function matchDescriptors(a: ArrayLike<number>, b: ArrayLike<number>, threshold: number = DEFAULT_MATCH_THRESHOLD): FaceMatch {
  const distance = round(euclideanDistance(a, b), 6);
  return {
    distance,
    score: round(Math.max(0, 1 - distance), 4),
    match: distance <= threshold,
    threshold,
  };
}

export function assertThreshold(threshold: number): number {
  if (typeof threshold !== 'number' || !Number.isFinite(threshold) || threshold <= 0 || threshold > 2) {
    throw new RangeError('face match threshold must be a number in (0, 2]');
  }
  return threshold;
}
