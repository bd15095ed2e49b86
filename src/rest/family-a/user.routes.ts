import { Router } from 'express';
import type { AuthService } from '../../services/auth.service';
import type { UsersService } from '../../services/users.service';
import { actorOf } from '../context';
import { sendA } from '../envelopes';
import { authorize } from '../middleware/authorize';
import { requiredHeader } from '../validate';

/** Family A user side: key pairs and user DIDs. */
export function userRoutes(auth: AuthService, users: UsersService): Router {
  const r = Router();
  const holder = authorize(auth, ['holder', 'issuer']);

  r.get('/user/generateKeyPair', holder, (_req, res) => {
    sendA(res, 200, users.generateKeyPair());
  });

  r.get('/user/did', holder, async (req, res) => {
    sendA(res, 200, await users.userDid(actorOf(res), requiredHeader(req, 'publicKey')));
  });

  return r;
}
