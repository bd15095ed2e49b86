import { type Request, type Response, Router } from 'express';
import { invalidInput } from '../../errors';
import type { AuthService } from '../../services/auth.service';
import type { BiometricsService } from '../../services/biometrics.service';
import { sendA } from '../envelopes';
import { authorize } from '../middleware/authorize';
import { readMultipart, requiredFiles } from '../middleware/multipart';
import { bodyObject, requiredString } from '../validate';
import { validateBody } from '../middleware/validate-body';
import { compareFaces } from '../../contracts/family-a/image';

/**
 * Face templates. The reference spells the operation POST /user/image/createTemplate and, in its
 * overview, PUT /api/user/createTemplate: both methods are accepted on both paths (and /api).
 */
export function imageRoutes(auth: AuthService, biometrics: BiometricsService, maxImageBytes: number): Router {
  const r = Router();
  const holder = authorize(auth, ['holder', 'issuer']);

  const createTemplate = async (req: Request, res: Response): Promise<void> => {
    const body = await readMultipart(req, { files: ['originalPhoto', 'selfiePhoto'], maxFileBytes: maxImageBytes });
    const [original, selfie] = requiredFiles(body, ['originalPhoto', 'selfiePhoto']);
    sendA(res, 200, await biometrics.createTemplates(original!, selfie!), 'Templates Created');
  };
  for (const path of ['/user/image/createTemplate', '/user/createTemplate']) {
    r.post(path, holder, createTemplate);
    r.put(path, holder, createTemplate);
  }

  // Not in the reference: compare two templates (JSON), or a template with a photo (multipart).
  r.post('/user/image/compare', authorize(auth, []), validateBody(compareFaces, { multipart: true }), async (req, res) => {
    if (req.is('multipart/form-data')) {
      const body = await readMultipart(req, { files: ['photo'], fields: ['templateA'], maxFileBytes: maxImageBytes });
      const [photo] = requiredFiles(body, ['photo']);
      const templateA = body.fields['templateA'];
      if (!templateA) throw invalidInput('templateA is required', [{ field: 'templateA', message: 'required' }]);
      sendA(res, 200, await biometrics.compare(templateA, { photo: photo! }));
      return;
    }
    const json = bodyObject(req);
    sendA(res, 200, await biometrics.compare(requiredString(json, 'templateA', 16_384), { template: requiredString(json, 'templateB', 16_384) }));
  });

  return r;
}
