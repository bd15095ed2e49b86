import { Router } from 'express';
import type { AuthService } from '../../services/auth.service';
import type { VerificationService } from '../../services/family-a/verification.service';
import { authorize } from '../middleware/authorize';
import { bodyObject, booleanQuery, requiredHeader } from '../validate';

export function verifierRoutes(auth: AuthService, verification: VerificationService): Router {
  const r = Router();
  r.post('/verifier/verify', authorize(auth, ['verifier']), async (req, res) => {
    const result = await verification.verify({
      publicKey: requiredHeader(req, 'publicKey', 200),
      userSignature: requiredHeader(req, 'userSignature', 200),
      body: bodyObject(req),
      zkpValidation: booleanQuery(req, 'zkpValidation'),
    });
    // An invalid credential is a result, not an error: 200 with success false.
    res.status(200).json({ success: result.success, data: result.data, message: result.message, status: 200 });
  });
  return r;
}
