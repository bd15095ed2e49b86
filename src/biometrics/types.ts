/** Outcome of one template extraction. A photo without a face is a result, not an error. */
export interface FaceTemplateResult {
  /** true when a face was found and a template computed. */
  templateCreationResult: boolean;
  /** base64 of the versioned binary template (see template-format.ts); '' when no template. */
  template: string;
  /** Faces detected in the photo; with several, the template describes the largest one. */
  faceCount: number;
  /** Why no template was produced (currently only 'no_face_detected'); absent on success. */
  reason?: string;
}

/** Result of comparing two templates; see match.ts for the definitions. */
export interface FaceMatch {
  /** Euclidean distance between the two 128-d descriptors, rounded to 6 decimals. */
  distance: number;
  /** max(0, 1 - distance), rounded to 4 decimals: 1 = identical, higher = more alike. */
  score: number;
  /** distance <= threshold. */
  match: boolean;
  /** The decision threshold on the distance that was applied. */
  threshold: number;
}

export interface FaceEngine {
  /**
   * Decode, detect, landmarks, descriptor. Several faces: the largest box is used and the count
   * reported. Throws AppError INVALID_INPUT (not_an_image / corrupt_image), PAYLOAD_TOO_LARGE
   * (too_large), SERVICE_UNAVAILABLE (engine closed or its queue full) or INTERNAL.
   */
  createTemplate(image: Uint8Array): Promise<FaceTemplateResult>;
  /** Compares two base64 templates; AppError INVALID_INPUT for malformed or other-model ones. */
  compare(a: string, b: string): FaceMatch;
  /** Starts the workers and loads the models now instead of on the first createTemplate. */
  warmup(): Promise<void>;
  /** Terminates the workers; pending and later calls fail with SERVICE_UNAVAILABLE. */
  close(): Promise<void>;
}

export interface FaceEngineOptions {
  /** Match threshold on the euclidean distance; default 0.6. */
  threshold?: number;
  /** Worker threads; clamped to 1..os.availableParallelism(); default all cores. */
  workers?: number;
  /** Largest accepted encoded image; default 8 MiB. Over it: PAYLOAD_TOO_LARGE. */
  maxImageBytes?: number;
  /** Decoded images are scaled down to fit inside maxSide x maxSide; default 1024. */
  maxSide?: number;
  /** Decompression-bomb guard: largest width x height accepted before scaling; default 100 M. */
  maxInputPixels?: number;
  /** Requests admitted beyond those being computed (decoding or waiting); default 8 per worker. */
  maxQueue?: number;
  /** Optional hard cap on one tenant's admitted requests; by default a tenant alone may use all. */
  tenantShare?: number;
  /** SSD MobileNet V1 detection confidence; default 0.5 (face-api's default). */
  minConfidence?: number;
}
