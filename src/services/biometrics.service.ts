import { invalidInput } from '../errors';
import type { FaceEngine, FaceMatch, FaceTemplateResult } from '../domain/ports';

/** One face of interface reference 2.8, plus what was found. */
export interface FaceView {
  readonly pos: 'F';
  readonly template: string;
  readonly templateCreationResult: boolean;
  /** Faces detected; the largest one was used. */
  readonly faceCount: number;
  /** Why no template was made (e.g. no_face_detected). */
  readonly reason?: string;
}

const view = (r: FaceTemplateResult): FaceView => ({
  pos: 'F',
  template: r.template,
  templateCreationResult: r.templateCreationResult,
  faceCount: r.faceCount,
  ...(r.reason ? { reason: r.reason } : {}),
});

/** Face templates and matching (Family A image templates). */
export class BiometricsService {
  constructor(private readonly faces: FaceEngine) {}

  /** `originalPhoto` becomes the gallery face, `selfiePhoto` the probe face. */
  async createTemplates(originalPhoto: Uint8Array, selfiePhoto: Uint8Array): Promise<{ galleryFace: FaceView; probeFace: FaceView }> {
    const [gallery, probe] = await Promise.all([this.faces.createTemplate(originalPhoto), this.faces.createTemplate(selfiePhoto)]);
    return { galleryFace: view(gallery), probeFace: view(probe) };
  }

  /** Two templates, or a template and a photo. */
  async compare(templateA: string, other: { template?: string; photo?: Uint8Array }): Promise<FaceMatch & { probe?: FaceView }> {
    if ((other.template === undefined) === (other.photo === undefined)) throw invalidInput('give templateB or a photo to compare with templateA');
    if (other.template !== undefined) return this.faces.compare(templateA, other.template);
    const probe = await this.faces.createTemplate(other.photo!);
    if (!probe.templateCreationResult) throw invalidInput(`no face in the photo (${probe.reason ?? 'no_face_detected'})`, [{ field: 'photo', message: 'no face detected' }]);
    return { ...this.faces.compare(templateA, probe.template), probe: view(probe) };
  }
}

/** Starts the real engine on first use only: most processes and tests never see a face. */
export function lazyFaceEngine(create: () => FaceEngine): FaceEngine {
  let engine: FaceEngine | undefined;
  const get = (): FaceEngine => (engine ??= create());
  return {
    createTemplate: (image) => get().createTemplate(image),
    compare: (a, b) => get().compare(a, b),
    close: async () => {
      if (engine) await engine.close();
    },
  };
}
