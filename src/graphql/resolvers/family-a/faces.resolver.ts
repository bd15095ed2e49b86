import { Arg, Authorized, Mutation, Resolver } from 'type-graphql';
import { type LazyUpload, UploadScalar } from '../../scalars/upload.scalar';
import type { BiometricsService } from '../../../services/biometrics.service';
import { invalidInput } from '../../../errors';
import { FaceMatchResult, FaceTemplatesPayload } from '../../types/family-a/face.type';
import { readUpload } from '../../uploads';

/** Face templates through GraphQL uploads (multipart request spec). */
@Resolver()
export class FacesResolver {
  constructor(
    private readonly biometrics: BiometricsService,
    private readonly maxImageBytes: number,
  ) {}

  @Authorized('holder', 'issuer')
  @Mutation(() => FaceTemplatesPayload, { description: 'REST: POST /user/image/createTemplate (multipart originalPhoto, selfiePhoto).' })
  async createFaceTemplates(
    @Arg('originalPhoto', () => UploadScalar) originalPhoto: LazyUpload,
    @Arg('selfiePhoto', () => UploadScalar) selfiePhoto: LazyUpload,
  ): Promise<FaceTemplatesPayload> {
    // graphql-upload-minimal streams parts straight from the request (no buffering), so files
    // must be read in the order they arrive: reading both at once deadlocks.
    const a = await readUpload(originalPhoto, 'originalPhoto', this.maxImageBytes);
    const b = await readUpload(selfiePhoto, 'selfiePhoto', this.maxImageBytes);
    if (a.length === 0 || b.length === 0) throw invalidInput('both photos are required');
    return this.biometrics.createTemplates(a, b);
  }

  @Authorized()
  @Mutation(() => FaceMatchResult, { description: 'REST: POST /user/image/compare. templateA against templateB, or against a photo.' })
  async compareFaces(
    @Arg('templateA', () => String) templateA: string,
    @Arg('templateB', () => String, { nullable: true }) templateB?: string,
    @Arg('photo', () => UploadScalar, { nullable: true }) photo?: LazyUpload,
  ): Promise<FaceMatchResult> {
    const other = photo ? { photo: await readUpload(photo, 'photo', this.maxImageBytes) } : templateB != null ? { template: templateB } : {};
    const { distance, score, match, threshold } = await this.biometrics.compare(templateA, other);
    return { distance, score, match, threshold };
  }
}
