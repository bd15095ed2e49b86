import { Router } from 'express';
import type { AuthService } from '../../services/auth.service';
import type { KeysService } from '../../services/keys.service';
import { actorOf } from '../context';
import { authorize } from '../middleware/authorize';

export function keyRoutes(auth: AuthService, keys: KeysService): Router {
  const r = Router();
  r.get('/generate-keypair', authorize(auth, ['issuer', 'holder']), async (_req, res) => {
    // The only response that ever carries this private key: keep it out of every cache.
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).json(await keys.generateKeypair(actorOf(res)));
  });
  return r;
}
