import { Router } from 'express';
import { CreatePresentationRequestBody, createPresentationRequest, getPresentationRequest, getPresentationResult } from '../../contracts/oid4vp';
import type { Oid4vpVerifierService } from '../../oid4vc/verifier';
import type { AuthService } from '../../services/auth.service';
import { actorOf } from '../context';
import { authorize } from '../middleware/authorize';
import { bodyOf, validateBody } from '../middleware/validate-body';
import { pathParam } from '../validate';

/** The relying party's side of OID4VP (API key, verifier scope): create a request, read it and its result. */
export function oid4vpVerifierRoutes(auth: AuthService, verifier: Oid4vpVerifierService): Router {
  const r = Router();
  r.post(createPresentationRequest.paths[0]!, authorize(auth, ['verifier']), validateBody(createPresentationRequest), async (req, res) => {
    res.status(201).json(await verifier.create(actorOf(res), bodyOf(req, CreatePresentationRequestBody)));
  });
  r.get(getPresentationRequest.paths[0]!, authorize(auth, ['verifier']), async (req, res) => {
    res.json(await verifier.get(actorOf(res), pathParam(req, 'requestId')));
  });
  r.get(getPresentationResult.paths[0]!, authorize(auth, ['verifier']), async (req, res) => {
    const v = await verifier.get(actorOf(res), pathParam(req, 'requestId'));
    res.json({ id: v.id, status: v.status, result: v.result });
  });
  return r;
}
