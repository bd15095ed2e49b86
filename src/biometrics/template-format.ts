import { AppError } from '../errors';
import { FACE_MODEL_ID } from './model';

/**
 * Face template, binary format v1 (transported as standard base64 with padding):
 *
 *   offset  size  content
 *   0       4     magic 'CGFT' (0x43 0x47 0x46 0x54)
 *   4       1     format version = 1
 *   5       1     L = byte length of the model id (1..255)
 *   6       L     model id, UTF-8 (FACE_MODEL_ID of the engine that computed it)
 *   6+L     512   descriptor: 128 x IEEE-754 float32, little-endian
 *
 * Total 518 + L bytes; anything longer or shorter is malformed. The model id makes a template from
 * another model (or another face-api release) fail loudly instead of producing a meaningless
 * distance. Templates are biometric data: never log them or their descriptors.
 */
export const TEMPLATE_MAGIC = 'CGFT';
export const TEMPLATE_VERSION = 1;
export const DESCRIPTOR_LENGTH = 128;

const HEADER = 6;
const DESCRIPTOR_BYTES = DESCRIPTOR_LENGTH * 4;
/** Upper bound of a v1 template in base64 characters (255-byte model id). */
const MAX_BASE64 = Math.ceil((HEADER + 255 + DESCRIPTOR_BYTES) / 3) * 4;
const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export interface DecodedTemplate {
  version: number;
  modelId: string;
  descriptor: Float32Array;
}

function malformed(field: string): AppError {
  return new AppError('INVALID_INPUT', 'malformed face template', [{ field, message: 'malformed_template' }]);
}

/** Serialises a descriptor as a v1 template (raw bytes). */
export function encodeTemplateBytes(descriptor: ArrayLike<number>, modelId: string = FACE_MODEL_ID): Uint8Array {
  if (descriptor.length !== DESCRIPTOR_LENGTH) {
    throw new RangeError(`a face descriptor has ${DESCRIPTOR_LENGTH} values, got ${descriptor.length}`);
  }
  const id = Buffer.from(modelId, 'utf8');
  if (id.length < 1 || id.length > 255) throw new RangeError('model id must be 1..255 UTF-8 bytes');
  const out = new Uint8Array(HEADER + id.length + DESCRIPTOR_BYTES);
  out.set(Buffer.from(TEMPLATE_MAGIC, 'latin1'), 0);
  out[4] = TEMPLATE_VERSION;
  out[5] = id.length;
  out.set(id, HEADER);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const base = HEADER + id.length;
  for (let i = 0; i < DESCRIPTOR_LENGTH; i++) {
    const v = descriptor[i] as number;
    if (!Number.isFinite(v)) throw new RangeError('face descriptor values must be finite');
    view.setFloat32(base + i * 4, v, true);
  }
  return out;
}

/** Serialises a descriptor as a v1 template in base64. */
export function encodeTemplate(descriptor: ArrayLike<number>, modelId: string = FACE_MODEL_ID): string {
  return Buffer.from(encodeTemplateBytes(descriptor, modelId)).toString('base64');
}

/**
 * Parses template bytes without checking the model id. Throws AppError INVALID_INPUT with detail
 * 'malformed_template' (bad magic, length, id or values) or 'unsupported_version'.
 */
export function parseTemplateBytes(bytes: Uint8Array, field = 'template'): DecodedTemplate {
  if (bytes.length < HEADER + 1 + DESCRIPTOR_BYTES) throw malformed(field);
  if (Buffer.from(bytes.subarray(0, 4)).toString('latin1') !== TEMPLATE_MAGIC) throw malformed(field);
  const version = bytes[4] as number;
  if (version !== TEMPLATE_VERSION) {
    throw new AppError('INVALID_INPUT', 'unsupported face template version', [{ field, message: 'unsupported_version' }]);
  }
  const idLength = bytes[5] as number;
  if (idLength === 0 || bytes.length !== HEADER + idLength + DESCRIPTOR_BYTES) throw malformed(field);
  let modelId: string;
  try {
    modelId = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(HEADER, HEADER + idLength));
  } catch {
    throw malformed(field);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const descriptor = new Float32Array(DESCRIPTOR_LENGTH);
  const base = HEADER + idLength;
  for (let i = 0; i < DESCRIPTOR_LENGTH; i++) {
    const v = view.getFloat32(base + i * 4, true);
    if (!Number.isFinite(v)) throw malformed(field);
    descriptor[i] = v;
  }
  return { version, modelId, descriptor };
}

/**
 * Decodes a base64 template and checks it was made by `expectedModelId` (default: this engine's
 * model). Throws AppError INVALID_INPUT: 'malformed_template', 'unsupported_version' or
 * 'other_model' (message 'template from another model').
 */
export function decodeTemplate(template: unknown, expectedModelId: string = FACE_MODEL_ID, field = 'template'): Float32Array {
  if (typeof template !== 'string' || template.length === 0 || template.length > MAX_BASE64 || !BASE64_RE.test(template)) {
    throw malformed(field);
  }
  const parsed = parseTemplateBytes(new Uint8Array(Buffer.from(template, 'base64')), field);
  if (parsed.modelId !== expectedModelId) {
    throw new AppError('INVALID_INPUT', 'template from another model', [{ field, message: 'other_model' }]);
  }
  return parsed.descriptor;
}
