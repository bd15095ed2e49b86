import { Router } from 'express';
import type { AuthService } from '../../services/auth.service';
import type { DidsService } from '../../services/dids.service';
import { actorOf } from '../context';
import { authorize } from '../middleware/authorize';
import { pathParam, requiredHeader } from '../validate';
import { bodyOf, validateBody } from '../middleware/validate-body';
import { CreateDidBody, createDid } from '../../contracts/family-b/keys-dids';

export function didRoutes(auth: AuthService, dids: DidsService): Router {
  const r = Router();
  const anyScope = authorize(auth, []);

  r.post('/dids', authorize(auth, ['issuer', 'holder']), validateBody(createDid), async (req, res) => {
    const { document, created } = await dids.createDid(actorOf(res), bodyOf(req, CreateDidBody));
    res.status(created ? 201 : 200).json(document);
  });

  r.get('/dids', anyScope, async (req, res) => {
    res.json(await dids.getDidDocument(actorOf(res), requiredHeader(req, 'did', 512)));
  });

  r.get('/dids/:did', anyScope, async (req, res) => {
    res.json(await dids.getDidDocument(actorOf(res), pathParam(req, 'did')));
  });

  return r;
}
