import { Arg, Authorized, Query, Resolver } from 'type-graphql';
import type { VerificationService } from '../../../services/family-a/verification.service';
import { VerifyCredentialInput } from '../../types/family-a/verification.input';
import { VerificationPayload } from '../../types/family-a/verification.type';

/** The REST body of POST /verifier/verify, leaving out what the caller did not give. */
function toRequestBody(input: VerifyCredentialInput): Record<string, unknown> {
  const z = input.zkpCertificate;
  return {
    ...(input.credentials != null ? { credentials: input.credentials } : {}),
    ...(input.cryptograph != null ? { cryptograph: input.cryptograph } : {}),
    ...(input.verifyParams != null ? { verifyParams: input.verifyParams } : {}),
    ...(z != null ? { zkpCertificate: { certificate: z.certificate, zkpSignature: z.zkpSignature, publicKey: z.publicKey, userSignature: z.userSignature } } : {}),
  };
}

/** Family A verifier side. */
@Resolver()
export class VerifierResolver {
  constructor(private readonly verification: VerificationService) {}

  @Authorized('verifier')
  @Query(() => VerificationPayload, { description: 'REST: POST /verifier/verify. An invalid credential answers success false with reasons.' })
  async verifyCredential(@Arg('input', () => VerifyCredentialInput) input: VerifyCredentialInput): Promise<VerificationPayload> {
    const r = await this.verification.verify({
      publicKey: input.publicKey,
      userSignature: input.userSignature,
      body: toRequestBody(input),
      zkpValidation: input.zkpValidation === true,
    });
    return { success: r.success, message: r.message, data: { ...r.data, reasons: [...r.data.reasons] } };
  }
}
