import { Router } from 'express';
import type { AuthService } from '../../services/auth.service';
import type { UsersService } from '../../services/users.service';
import type { CredentialsService } from '../../services/family-a/credentials.service';
import type { HolderProofService } from '../../services/family-a/holder-proof.service';
import { actorOf } from '../context';
import { sendA } from '../envelopes';
import { authorize } from '../middleware/authorize';
import { bodyObject, requiredHeader } from '../validate';
import { validateBody } from '../middleware/validate-body';
import { requiredStringQueryOf, stringQueryOf } from '../middleware/validate-query';
import { holderProof, userDecrypt, userSign } from '../../contracts/family-a/user';

/** Family A user side: key pairs and user DIDs. */
export function userRoutes(auth: AuthService, users: UsersService, credentials: CredentialsService, holderProofs: HolderProofService): Router {
  const r = Router();
  const holder = authorize(auth, ['holder', 'issuer']);
  const issuerDid = requiredStringQueryOf(userSign, 'issuerDID');
  const schemaName = stringQueryOf(userSign, 'schemaName');

  r.get('/user/generateKeyPair', holder, (_req, res) => {
    sendA(res, 200, users.generateKeyPair());
  });

  r.get('/user/did', holder, async (req, res) => {
    sendA(res, 200, await users.userDid(actorOf(res), requiredHeader(req, 'publicKey')));
  });

  r.post('/user/sign', holder, validateBody(userSign), (req, res) => {
    // `schemaName` (optional, not in the reference) binds the consent to one schema as well as to the issuer.
    const signature = credentials.signSubject(requiredHeader(req, 'privateKey', 200), issuerDid(req), bodyObject(req)['payload'], schemaName(req));
    // The reference spells this response differently from the envelope: capital-S Signature.
    res.status(200).json({ success: true, Signature: signature, status: 200 });
  });

  // Not in the reference: a fresh, purpose-bound holder proof (challenge for verification, or revocation).
  r.post('/user/holderProof', holder, validateBody(holderProof), (req, res) => {
    const body = bodyObject(req);
    const signature = holderProofs.sign(requiredHeader(req, 'privateKey', 200), { credentialId: body['credentialId'], purpose: body['purpose'], nonce: body['nonce'] });
    res.setHeader('Cache-Control', 'no-store');
    sendA(res, 200, { signature });
  });

  // Not in the reference: the holder's decryption of an encrypted credential, as a convenience
  // (a holder can do the same offline; see docs/API.md).
  r.post('/user/decrypt', holder, validateBody(userDecrypt), async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    sendA(res, 200, { credentialSubject: await credentials.decrypt(requiredHeader(req, 'privateKey', 200), bodyObject(req)['vc']) });
  });

  return r;
}
