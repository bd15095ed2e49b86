import { type Request, Router } from 'express';
import { invalidInput } from '../../errors';
import { readMultipart } from '../middleware/multipart';
import type { AuthService } from '../../services/auth.service';
import { VerificationService } from '../../services/family-a/verification.service';
import { actorOf, header } from '../context';
import { authorize } from '../middleware/authorize';
import { requiredHeader } from '../validate';
import { booleanQueryOf } from '../middleware/validate-query';
import { assertBody, bodyOf, validateBody } from '../middleware/validate-body';
import { type VerifyCredentialABody, VerifyBody, verifyCredentialA } from '../../contracts/family-a/verifier';

/** The multipart variant carries the JSON body in a `request` field and the selfie as `selfiePhoto`. */
async function verifyInput(req: Request, maxImageBytes: number): Promise<{ body: VerifyCredentialABody; probePhoto?: Uint8Array }> {
  if (!req.is('multipart/form-data')) return { body: bodyOf(req, VerifyBody) };
  const mp = await readMultipart(req, { files: ['selfiePhoto'], fields: ['request'], maxFileBytes: maxImageBytes });
  let body: unknown;
  try {
    body = JSON.parse(mp.fields['request'] ?? '');
  } catch {
    throw invalidInput('the request field must hold the JSON body', [{ field: 'request', message: 'JSON object' }]);
  }
  // The same schema as the JSON variant (validateBody skips multipart requests).
  assertBody(verifyCredentialA, body);
  const photo = mp.files.get('selfiePhoto');
  // assertBody checked it against VerifyBody, the schema VerifyCredentialABody is the type of.
  return { body: body as VerifyCredentialABody, ...(photo ? { probePhoto: photo } : {}) };
}

/** `userSignature` may be left out when the body carries a challenge-bound `holderProof`. */
function optionalUserSignature(req: Request): { userSignature?: string } {
  return header(req, 'userSignature')?.trim() ? { userSignature: requiredHeader(req, 'userSignature', 200) } : {};
}

export function verifierRoutes(auth: AuthService, verification: VerificationService, maxImageBytes: number): Router {
  const r = Router();
  const zkpValidationOf = booleanQueryOf(verifyCredentialA, 'zkpValidation');
  r.post('/verifier/verify', authorize(auth, ['verifier']), validateBody(verifyCredentialA, { multipart: true }), async (req, res) => {
    const input = await verifyInput(req, maxImageBytes);
    const zkpValidation = zkpValidationOf(req);
    // A zero-knowledge check names no holder: the holder's key header is not needed (nor read).
    const zk = VerificationService.isZk(zkpValidation, input.body);
    const result = await verification.verify({
      publicKey: zk ? '' : requiredHeader(req, 'publicKey', 200),
      ...optionalUserSignature(req),
      ...input,
      zkpValidation,
      verifierTenantId: actorOf(res).tenantId,
    });
    // An invalid credential is a result, not an error: 200 with success false.
    res.status(200).json({ success: result.success, data: result.data, message: result.message, status: 200 });
  });
  return r;
}
