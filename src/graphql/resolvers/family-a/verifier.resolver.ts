import { Arg, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../context';
import { type LazyUpload, UploadScalar } from '../../scalars/upload.scalar';
import { readUpload } from '../../uploads';
import type { VerificationService } from '../../../services/family-a/verification.service';
import type { VerifyCredentialABody } from '../../../contracts/family-a/verifier';
import { VerifyCredentialInput } from '../../types/family-a/verification.input';
import { VerificationPayload } from '../../types/family-a/verification.type';

/** The operation's body input from the GraphQL arguments, leaving out what the caller did not give (GraphQL's null). */
function toBodyInput(input: VerifyCredentialInput): VerifyCredentialABody {
  const z = input.zkpCertificate;
  return {
    ...(input.credentials != null ? { credentials: input.credentials } : {}),
    ...(input.cryptograph != null ? { cryptograph: input.cryptograph } : {}),
    ...(input.verifyParams != null ? { verifyParams: input.verifyParams } : {}),
    ...(input.probeTemplate != null ? { probeTemplate: input.probeTemplate } : {}),
    ...(input.holderProof != null ? { holderProof: { nonce: input.holderProof.nonce, signature: input.holderProof.signature } } : {}),
    ...(z != null
      ? {
          zkpCertificate: {
            certificate: z.certificate,
            zkpSignature: z.zkpSignature,
            publicKey: z.publicKey,
            ...(z.userSignature != null ? { userSignature: z.userSignature } : {}),
            ...(z.statement != null ? { statement: z.statement } : {}),
            ...(z.proofSystem != null ? { proofSystem: z.proofSystem } : {}),
          },
        }
      : {}),
    ...(input.verifierChallenge != null ? { verifierChallenge: { verifierId: input.verifierChallenge.verifierId, nonce: input.verifierChallenge.nonce } } : {}),
  };
}

/** Family A verifier side. */
@Resolver()
export class VerifierResolver {
  constructor(
    private readonly verification: VerificationService,
    private readonly maxImageBytes: number,
  ) {}

  @Authorized('verifier')
  @Query(() => VerificationPayload, { description: 'REST: POST /verifier/verify. An invalid credential answers success false with reasons.' })
  async verifyCredential(
    @Arg('input', () => VerifyCredentialInput) input: VerifyCredentialInput,
    @Ctx() ctx: GraphQLContext,
    @Arg('selfiePhoto', () => UploadScalar, { nullable: true, description: 'A selfie to compare with the bound face (multipart request).' }) selfiePhoto?: LazyUpload,
  ): Promise<VerificationPayload> {
    const probePhoto = selfiePhoto ? await readUpload(selfiePhoto, 'selfiePhoto', this.maxImageBytes) : undefined;
    const r = await this.verification.verify({
      ...(probePhoto ? { probePhoto } : {}),
      publicKey: input.publicKey,
      ...(input.userSignature != null ? { userSignature: input.userSignature } : {}),
      body: toBodyInput(input),
      zkpValidation: input.zkpValidation === true,
      verifierTenantId: ctx.actor.tenantId,
    });
    const zkpResult = r.data.zkpResult ? { ...r.data.zkpResult, predicates: r.data.zkpResult.predicates.map((p) => ({ ...p })) } : null;
    return { success: r.success, message: r.message, data: { ...r.data, zkpResult, reasons: [...r.data.reasons] } };
  }
}
