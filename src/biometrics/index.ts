/**
 * Face biometrics engine: templates from photos and template comparison. See engine.ts for the
 * pipeline, template-format.ts for the template bytes and match.ts for the score and decision.
 */
export type { FaceEngine, FaceEngineOptions, FaceMatch, FaceTemplateResult } from './types';
export { createFaceEngine, poolSize, NO_FACE_DETECTED, DEFAULT_MIN_CONFIDENCE } from './engine';
export { FACE_MODEL_ID, FACE_API_VERSION } from './model';
export { DEFAULT_MATCH_THRESHOLD, matchDescriptors, euclideanDistance } from './match';
export { DEFAULT_MAX_IMAGE_BYTES, DEFAULT_MAX_SIDE, DEFAULT_MAX_INPUT_PIXELS } from './decode';
export { TEMPLATE_MAGIC, TEMPLATE_VERSION, DESCRIPTOR_LENGTH, encodeTemplate, decodeTemplate, parseTemplateBytes } from './template-format';
