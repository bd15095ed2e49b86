import { Router } from 'express';
import type { AuthService } from '../../services/auth.service';
import type { PresentationsService } from '../../services/family-b/presentations.service';
import type { SignaturesService } from '../../services/family-b/signatures.service';
import type { ZkpTokensService } from '../../services/family-b/zkp-tokens.service';
import { actorOf } from '../context';
import { authorize } from '../middleware/authorize';
import { bodyOf, validateBody } from '../middleware/validate-body';
import * as ops from '../../contracts/family-b/presentations';

/** Presentations, data signatures and ZKP tokens (Family B). */
export function presentationRoutes(auth: AuthService, vps: PresentationsService, signatures: SignaturesService, zkp: ZkpTokensService): Router {
  const r = Router();
  const verifier = authorize(auth, ['verifier', 'issuer', 'holder']);

  r.post('/create-vp', authorize(auth, ['holder']), validateBody(ops.createVp), async (req, res) => {
    res.status(200).json(await vps.create(actorOf(res), bodyOf(req, ops.CreatePresentationBody)));
  });
  r.post('/verify-vp', verifier, validateBody(ops.verifyVp), async (req, res) => {
    res.json(await vps.verify(bodyOf(req, ops.VerifyPresentationBody)));
  });
  r.post('/signature/create', authorize(auth, ['holder', 'issuer']), validateBody(ops.createSignature), (req, res) => {
    res.json(signatures.create(bodyOf(req, ops.CreateSignatureBody)));
  });
  r.post('/signature/verify', verifier, validateBody(ops.verifySignature), (req, res) => {
    res.json(signatures.verify(bodyOf(req, ops.VerifySignatureBody)));
  });
  r.post('/createZkpToken', authorize(auth, ['issuer']), validateBody(ops.createZkpToken), async (req, res) => {
    res.json(await zkp.create(actorOf(res), bodyOf(req, ops.CreateZkpTokenBody)));
  });
  r.post('/verifyZkpToken', verifier, validateBody(ops.verifyZkpToken), async (req, res) => {
    res.json(await zkp.verify(bodyOf(req, ops.VerifyZkpTokenBody), actorOf(res)));
  });
  r.get('/zk/issuer-key/:did', verifier, async (req, res) => {
    res.json(await zkp.issuerKey(String(req.params['did']), actorOf(res)));
  });
  r.post('/zk/holder-signature', authorize(auth, ['holder']), validateBody(ops.zkHolderSignature), async (req, res) => {
    res.json(await zkp.holderSignature(actorOf(res), bodyOf(req, ops.ZkHolderSignatureBody)));
  });
  return r;
}
