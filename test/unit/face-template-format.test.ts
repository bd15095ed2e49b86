import { AppError } from '../../src/errors';
import {
  DESCRIPTOR_LENGTH,
  FACE_MODEL_ID,
  TEMPLATE_VERSION,
  decodeTemplate,
  encodeTemplate,
  euclideanDistance,
  matchDescriptors,
  parseTemplateBytes,
} from '../../src/biometrics';
import { encodeTemplateBytes } from '../../src/biometrics/template-format';

const descriptor = Float32Array.from({ length: DESCRIPTOR_LENGTH }, (_, i) => Math.sin(i + 1) / 10);

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return e as AppError;
  }
  throw new Error('expected a refusal');
}

const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

describe('face template format v1', () => {
  it('round-trips a descriptor exactly (float32 little-endian)', () => {
    const t = encodeTemplate(descriptor);
    const back = decodeTemplate(t);
    expect(back).toEqual(descriptor);
    expect(Array.from(back)).toEqual(Array.from(descriptor));
  });

  it('lays out magic, version, model id and 128 float32 LE', () => {
    const bytes = encodeTemplateBytes(descriptor);
    const id = Buffer.from(FACE_MODEL_ID, 'utf8');
    expect(Buffer.from(bytes.subarray(0, 4)).toString('latin1')).toBe('CGFT');
    expect(bytes[4]).toBe(TEMPLATE_VERSION);
    expect(bytes[4]).toBe(1);
    expect(bytes[5]).toBe(id.length);
    expect(Buffer.from(bytes.subarray(6, 6 + id.length)).toString('utf8')).toBe(FACE_MODEL_ID);
    expect(bytes.length).toBe(6 + id.length + 512);
    expect(Buffer.from(bytes).readFloatLE(6 + id.length)).toBe(descriptor[0]);
    expect(Buffer.from(bytes).readFloatLE(6 + id.length + 127 * 4)).toBe(descriptor[127]);
    expect(parseTemplateBytes(bytes)).toEqual({ version: 1, modelId: FACE_MODEL_ID, descriptor });
  });

  it('names the face-api pipeline and version in the model id', () => {
    expect(FACE_MODEL_ID).toMatch(/^face-api\/ssd_mobilenetv1\+landmark68\+recognition@\d+\.\d+\.\d+$/);
  });

  it('refuses another magic', () => {
    const bytes = encodeTemplateBytes(descriptor);
    bytes[0] = 'X'.charCodeAt(0);
    const e = refusal(() => decodeTemplate(b64(bytes)));
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.details).toEqual([{ field: 'template', message: 'malformed_template' }]);
  });

  it('refuses another version', () => {
    const bytes = encodeTemplateBytes(descriptor);
    bytes[4] = 2;
    const e = refusal(() => decodeTemplate(b64(bytes)));
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.details).toEqual([{ field: 'template', message: 'unsupported_version' }]);
  });

  it('refuses a template from another model', () => {
    const t = encodeTemplate(descriptor, 'face-api/tiny_face_detector+landmark68tiny+recognition@1.7.15');
    const e = refusal(() => decodeTemplate(t));
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.status).toBe(400);
    expect(e.message).toBe('template from another model');
    expect(e.details).toEqual([{ field: 'template', message: 'other_model' }]);
    // ...but it is well-formed, and accepted when that model is expected.
    expect(decodeTemplate(t, 'face-api/tiny_face_detector+landmark68tiny+recognition@1.7.15')).toEqual(descriptor);
  });

  it('refuses malformed input: bad base64, wrong lengths, bad id length, non-finite values', () => {
    const good = encodeTemplateBytes(descriptor);
    const cases: unknown[] = [
      '',
      'not base64 at all!',
      b64(good).slice(0, -4),
      b64(good.subarray(0, good.length - 4)),
      b64(Buffer.concat([good, Buffer.from([0, 0, 0, 0])])),
      b64(good) + '====',
      'A'.repeat(5000),
      42,
      null,
    ];
    for (const c of cases) {
      const e = refusal(() => decodeTemplate(c));
      expect(e.code).toBe('INVALID_INPUT');
      expect(e.details?.[0]?.message).toBe('malformed_template');
    }
    const zeroId = Uint8Array.from(good);
    zeroId[5] = 0;
    expect(refusal(() => decodeTemplate(b64(zeroId))).details?.[0]?.message).toBe('malformed_template');
    const nan = Uint8Array.from(good);
    Buffer.from(nan.buffer).writeFloatLE(Number.NaN, good.length - 4);
    expect(refusal(() => decodeTemplate(b64(nan))).details?.[0]?.message).toBe('malformed_template');
    const badUtf8 = Uint8Array.from(good);
    badUtf8[6] = 0xff;
    expect(refusal(() => decodeTemplate(b64(badUtf8))).details?.[0]?.message).toBe('malformed_template');
  });

  it('names the offending field when asked', () => {
    expect(refusal(() => decodeTemplate('x', FACE_MODEL_ID, 'templateB')).details).toEqual([{ field: 'templateB', message: 'malformed_template' }]);
  });

  it('does not encode a descriptor of the wrong length or with non-finite values', () => {
    expect(() => encodeTemplate(new Float32Array(127))).toThrow(RangeError);
    expect(() => encodeTemplate(Float32Array.from(descriptor).fill(Number.POSITIVE_INFINITY, 3, 4))).toThrow(RangeError);
  });
});

describe('match score and decision', () => {
  it('distance is euclidean, score = max(0, 1 - distance), match = distance <= threshold', () => {
    const a = new Float32Array(128);
    const b = new Float32Array(128);
    b[0] = 0.3;
    b[1] = 0.4; // distance 0.5
    expect(euclideanDistance(a, b)).toBeCloseTo(0.5, 6);
    expect(matchDescriptors(a, b)).toEqual({ distance: 0.5, score: 0.5, match: true, threshold: 0.6 });
    expect(matchDescriptors(a, b, 0.5).match).toBe(true); // inclusive
    expect(matchDescriptors(a, b, 0.4999).match).toBe(false);
    b[2] = 1.2; // distance 1.3
    expect(matchDescriptors(a, b)).toEqual({ distance: 1.3, score: 0, match: false, threshold: 0.6 });
  });
});
