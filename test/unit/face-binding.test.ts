import { randomBytes } from 'node:crypto';
import { FACE_COMMITMENT_PREFIX, faceCommitment } from '../../src/domain/credentials/face-commitment';
import { boundGalleryTemplate, newFaceSalt, shownFaceCommitment } from '../../src/services/family-a/face-binding';

const template = (): string => randomBytes(600).toString('base64');
const ID = 'Badge:1:7c1e0a52-5d7e-4c86-9d3f-0e7f3f1b2a11';

describe('face commitment', () => {
  it('is a fixed-shape digest that depends on the template, the salt and the credential id', () => {
    const t = template();
    const salt = randomBytes(32);
    const c = faceCommitment(t, salt, ID);
    expect(c).toMatch(/^sha256-salted:[A-Za-z0-9_-]{43}$/);
    expect(c.startsWith(FACE_COMMITMENT_PREFIX)).toBe(true);
    expect(faceCommitment(t, salt, ID)).toBe(c);
    expect(faceCommitment(t, randomBytes(32), ID)).not.toBe(c);
    expect(faceCommitment(template(), salt, ID)).not.toBe(c);
    expect(faceCommitment(t, salt, `${ID}x`)).not.toBe(c);
    expect(c).not.toContain(t.slice(0, 16));
  });

  it('refuses a salt of the wrong size', () => {
    expect(() => faceCommitment(template(), randomBytes(16), ID)).toThrow(RangeError);
  });
});

describe('boundGalleryTemplate', () => {
  const sealed = { template: template(), salt: newFaceSalt() };
  const shown = shownFaceCommitment(sealed, ID)!;

  it('returns the sealed template only when the credential shows its commitment', () => {
    expect(boundGalleryTemplate(sealed, { biometrics: { face: shown, iris: null, finger: null } }, ID)).toBe(sealed.template);
    expect(boundGalleryTemplate(sealed, { biometrics: { face: shownFaceCommitment({ ...sealed, salt: newFaceSalt() }, ID), iris: null, finger: null } }, ID)).toBeNull();
    expect(boundGalleryTemplate(sealed, { biometrics: { face: null, iris: null, finger: null } }, ID)).toBeNull();
    expect(boundGalleryTemplate(sealed, { biometrics: { face: shown } }, `${ID}x`)).toBeNull();
    expect(boundGalleryTemplate(sealed, {}, ID)).toBeNull();
  });

  it('re-issued credentials (biometrics {}) and pre-commitment records are bound by the record', () => {
    expect(boundGalleryTemplate(sealed, { biometrics: {} }, ID)).toBe(sealed.template);
    expect(boundGalleryTemplate({ template: sealed.template, salt: null }, { biometrics: { face: 'anything' } }, ID)).toBe(sealed.template);
    expect(boundGalleryTemplate(null, { biometrics: { face: shown } }, ID)).toBeNull();
  });

  it('shows null when no face is bound', () => {
    expect(shownFaceCommitment(null, ID)).toBeNull();
  });
});
