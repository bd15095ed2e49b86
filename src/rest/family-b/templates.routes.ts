import { Router } from 'express';
import type { AuthService } from '../../services/auth.service';
import type { TemplatesService } from '../../services/family-b/templates.service';
import { actorOf } from '../context';
import { authorize } from '../middleware/authorize';
import { bodyObject, pathParam } from '../validate';

export function templateRoutes(auth: AuthService, templates: TemplatesService): Router {
  const r = Router();
  const issuer = authorize(auth, ['issuer']);

  r.post('/vc-templates', issuer, async (req, res) => {
    res.status(201).json(await templates.create(actorOf(res), bodyObject(req)));
  });

  r.get('/vc-templates', issuer, async (_req, res) => {
    res.json((await templates.list(actorOf(res), { first: 500 })).items);
  });

  // The reference labels this success 201; kept for compatibility although nothing is created.
  r.get('/vc-templates/:templateName', issuer, async (req, res) => {
    res.status(201).json(await templates.getByName(actorOf(res), pathParam(req, 'templateName')));
  });

  r.put('/vc-templates/:templateId', issuer, async (req, res) => {
    res.json(await templates.update(actorOf(res), pathParam(req, 'templateId'), bodyObject(req)));
  });

  r.delete('/vc-templates/:templateId', issuer, async (req, res) => {
    await templates.delete(actorOf(res), pathParam(req, 'templateId'));
    res.json({ message: 'Template deleted', templateId: pathParam(req, 'templateId') });
  });

  return r;
}
