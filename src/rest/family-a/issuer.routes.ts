import { Router } from 'express';
import type { AuthService } from '../../services/auth.service';
import type { CredentialsService, IssueResult } from '../../services/family-a/credentials.service';
import type { IssuerDidService } from '../../services/family-a/issuer-did.service';
import { issueRequestOf } from '../../services/family-a/issue-request';
import type { ZkpService } from '../../services/family-a/zkp.service';
import { actorOf } from '../context';
import { sendA } from '../envelopes';
import { authorize } from '../middleware/authorize';
import { bodyObject, pathParam, requiredHeader } from '../validate';
import { booleanQueryOf } from '../middleware/validate-query';
import type { Request, Response } from 'express';
import type { Operation } from '../../contracts';
import { bodyOf, validateBody } from '../middleware/validate-body';
import { CreateZkpBody, IssueBody, ReissueBody, createZkp, createZkpInputOf, issueCredentialA, reissueCredentialA, revokeCredentialA } from '../../contracts/family-a/issuer';

export const ISSUED_MESSAGE = 'Verifiable Credential created and submited successfully';

/** Headers that prove the holder's consent on issue and re-issue. */
function holderProof(req: Request) {
  return {
    did: requiredHeader(req, 'did', 512),
    publicKey: requiredHeader(req, 'publicKey', 200),
    userSignature: requiredHeader(req, 'userSignature', 200),
  };
}

/** isCryptograph and downloadCryptograph, read through the parameters issue and re-issue declare alike. */
function cryptographOptionsOf(op: Operation) {
  const cryptograph = booleanQueryOf(op, 'isCryptograph');
  const cryptographPng = booleanQueryOf(op, 'downloadCryptograph');
  return (req: Request) => ({ cryptograph: cryptograph(req), cryptographPng: cryptographPng(req) });
}

/** `downloadCryptograph=true` answers the QR code image itself; otherwise the Family A envelope. */
function sendIssued(res: Response, result: IssueResult): void {
  if (result.cryptographPng) {
    const id = String(result.verifiableCredential['id']).replace(/[^A-Za-z0-9.-]/g, '_');
    res.status(201).type('png').setHeader('Content-Disposition', `attachment; filename="${id}.png"`);
    res.send(result.cryptographPng);
    return;
  }
  sendA(res, 201, {
    verifiableCredential: result.verifiableCredential,
    userSignature: result.userSignature,
    ...(result.cryptograph ? { cryptograph: result.cryptograph } : {}),
  }, ISSUED_MESSAGE);
}

/** Family A issuer side: issuer DID, credentials, ZKP certificates. */
export function issuerRoutes(auth: AuthService, issuers: IssuerDidService, credentials: CredentialsService, zkp: ZkpService): Router {
  const r = Router();
  const issuer = authorize(auth, ['issuer']);
  const issueOptions = cryptographOptionsOf(issueCredentialA);
  const reissueOptions = cryptographOptionsOf(reissueCredentialA);

  r.get('/issuer/did', issuer, async (_req, res) => {
    sendA(res, 200, (await issuers.current(actorOf(res))).did);
  });

  r.delete('/issuer/did/:did', issuer, async (req, res) => {
    await issuers.delete(actorOf(res), pathParam(req, 'did'));
    sendA(res, 200, true, 'Issuer DID deleted successfully');
  });

  r.post('/issuer/verifiableCredential', issuer, validateBody(issueCredentialA), async (req, res) => {
    const holder = holderProof(req);
    const result = await credentials.issue(actorOf(res), holder, issueRequestOf(bodyOf(req, IssueBody)), issueOptions(req));
    sendIssued(res, result);
  });

  r.put('/issuer/verifiableCredential', issuer, validateBody(reissueCredentialA), async (req, res) => {
    const holder = holderProof(req);
    const body = bodyOf(req, ReissueBody);
    const result = await credentials.reissue(actorOf(res), holder, issueRequestOf(body), body.vc, reissueOptions(req));
    sendIssued(res, result);
  });

  r.delete('/issuer/verifiableCredential', authorize(auth, ['issuer', 'holder']), validateBody(revokeCredentialA), async (req, res) => {
    const proof = { publicKey: requiredHeader(req, 'publicKey', 200), userSignature: requiredHeader(req, 'userSignature', 200) };
    const id = await credentials.revoke(actorOf(res), proof, bodyObject(req)['vc']);
    sendA(res, 202, true, `Verifiable Credential ${id} has been revoked`);
  });

  r.post('/issuer/createZkp', issuer, validateBody(createZkp), async (req, res) => {
    sendA(res, 200, await zkp.create(actorOf(res), createZkpInputOf(bodyOf(req, CreateZkpBody))));
  });

  return r;
}
