import { AppError } from '../../errors';
import { signData, verifyData } from '../../domain/signatures';
import type { CreateSignatureInput, VerifySignatureInput } from '../../contracts/family-b/presentations';

/**
 * POST /signature/create and /signature/verify: secp256k1 ECDSA (hex r||s) over SHA-256 of the
 * data: RFC 8785 canonical JSON for objects, arrays, numbers and booleans; the UTF-8 text itself
 * for a string. Nothing is stored; the private key is used for this one call. The inputs are the
 * operations' contracts: REST checks the body against them, GraphQL's arguments have their shape.
 */
export class SignaturesService {
  create(input: CreateSignatureInput): { signature: string } {
    return { signature: signData(input.data, input.privateKey) };
  }

  verify(input: VerifySignatureInput): { valid: true } {
    if (!verifyData(input.signature, input.data, input.publicKey)) throw new AppError('VERIFICATION_FAILED', 'Invalid signature');
    return { valid: true };
  }
}
