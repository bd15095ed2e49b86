import { AppError, invalidInput } from '../../errors';
import { signData, verifyData } from '../../domain/signatures';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * POST /signature/create and /signature/verify: secp256k1 ECDSA (hex r||s) over SHA-256 of the
 * data: RFC 8785 canonical JSON for objects, arrays, numbers and booleans; the UTF-8 text itself
 * for a string. Nothing is stored; the private key is used for this one call.
 */
export class SignaturesService {
  create(body: unknown): { signature: string } {
    if (!isObject(body) || !('data' in body) || typeof body['privateKey'] !== 'string') {
      throw invalidInput('data and privateKey (hex) are required', [{ field: 'privateKey', message: 'required hex' }]);
    }
    return { signature: signData(body['data'], body['privateKey']) };
  }

  verify(body: unknown): { valid: true } {
    if (!isObject(body) || !('data' in body) || typeof body['signature'] !== 'string' || typeof body['publicKey'] !== 'string') {
      throw invalidInput('signature, data and publicKey are required');
    }
    if (!verifyData(body['signature'], body['data'], body['publicKey'])) throw new AppError('VERIFICATION_FAILED', 'Invalid signature');
    return { valid: true };
  }
}
