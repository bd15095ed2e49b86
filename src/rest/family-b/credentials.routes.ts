import { Router } from 'express';
import type { ErrorCode } from '../../errors';
import type { AuthService } from '../../services/auth.service';
import type { FamilyBCredentialsService } from '../../services/family-b/credentials.service';
import { actorOf } from '../context';
import { authorize } from '../middleware/authorize';
import { pathParam } from '../validate';
import { bodyOf, validateBody } from '../middleware/validate-body';
import { IssueBody, VerifyBody, issueCredential, verifyCredential } from '../../contracts/family-b/credentials';

/** Response headers of GET /credentials/{id}: `issued` or `revoked`, and when it was revoked. */
export const CREDENTIAL_STATUS_HEADER = 'Credential-Status';
export const CREDENTIAL_REVOKED_AT_HEADER = 'Credential-Revoked-At';

export function credentialRoutes(auth: AuthService, credentials: FamilyBCredentialsService): Router {
  const r = Router();

  r.post('/credentials/verify', authorize(auth, ['verifier', 'issuer', 'holder']), validateBody(verifyCredential), async (req, res) => {
    const result = await credentials.verify(bodyOf(req, VerifyBody).credential);
    if (result.verified) {
      res.json(result);
      return;
    }
    const failed = result.checks.filter((c) => !c.ok).map((c) => c.check);
    // Failed verification is a 400 in Family B; the body names the failed checks (`code` as in
    // every Family B error; the per-check results are the details).
    res.status(400).json({ error: `Verification failed: ${failed.join(', ')}`, code: 'VERIFICATION_FAILED' satisfies ErrorCode, checks: result.checks, ...(result.anchor ? { anchor: result.anchor } : {}) });
  });

  r.post('/credentials', authorize(auth, ['issuer']), validateBody(issueCredential), async (req, res) => {
    res.status(201).json(await credentials.issue(actorOf(res), bodyOf(req, IssueBody)));
  });

  r.get('/credentials/:credentialId', authorize(auth, ['issuer', 'holder']), async (req, res) => {
    const fetched = await credentials.fetch(actorOf(res), pathParam(req, 'credentialId'));
    // The status travels in headers: the body is the signed credential, and any added member would
    // break its proof and ledger hash for a client that verifies or presents what it fetched.
    res.setHeader(CREDENTIAL_STATUS_HEADER, fetched.status);
    if (fetched.revokedAt) res.setHeader(CREDENTIAL_REVOKED_AT_HEADER, fetched.revokedAt);
    res.json(fetched.document);
  });

  r.delete('/credentials/:credentialId', authorize(auth, ['issuer']), async (req, res) => {
    res.json(await credentials.revoke(actorOf(res), pathParam(req, 'credentialId')));
  });

  return r;
}
