import { type Response, Router } from 'express';
import type { AuthService } from '../../services/auth.service';
import type { VcApiServices, VcVerificationResult } from '../../services/vc-api';
import { VC_API_DEFAULT_BASE, CreateIssuerBody, DeriveBody, IssueBody, UpdateStatusBody, VerifyCredentialBody, VerifyPresentationBody, vcCreateIssuer, vcDeriveCredential, vcIssueCredential, vcIssueWithInstance, vcListIssuers, vcStatusList, vcUpdateStatus, vcVerifyCredential, vcVerifyPresentation } from '../../contracts/vc-api';
import type { Operation } from '../../contracts';
import { actorOf } from '../context';
import { authorize } from '../middleware/authorize';
import { bodyOf, validateBody } from '../middleware/validate-body';
import { pathParam } from '../validate';

/** An operation's path under the configured base (the contracts spell the default base). */
export const vcApiPath = (op: Operation, base: string): string => `${base}${op.paths[0]!.slice(VC_API_DEFAULT_BASE.length)}`;

/**
 * A verification that failed: 422 (400 when the document is not a credential or presentation at
 * all), as an RFC 9457 problem whose extension members are the VC-API verification result.
 */
function sendVerification(res: Response, result: VcVerificationResult): void {
  if (result.verified) {
    res.json(result);
    return;
  }
  const first = result.errors[0];
  const malformed = result.errors.some((e) => /#(PARSING_ERROR|MALFORMED_VALUE_ERROR)$/.test(e.type)) && !result.checks.includes('validity');
  const status = malformed ? 400 : 422;
  const body = { type: first?.type ?? 'urn:credgate:vc-api:NOT_VERIFIED', title: 'Verification failed', status, detail: first?.detail ?? first?.title ?? 'not verified', ...result };
  res.status(status).type('application/problem+json').send(JSON.stringify(body));
}

/**
 * The VC-API under CREDGATE_VC_API_BASE; its errors are problem details (router.ts marks the
 * family). Routes carry their full paths rather than being mounted on the base, so the route
 * table (405s, the index, the contract test) sees every one of them as it is served.
 */
export function vcApiRoutes(auth: AuthService, vc: VcApiServices): Router {
  const r = Router();
  const below = (op: Operation): string => vcApiPath(op, vc.base);

  r.post(below(vcIssueCredential), authorize(auth, ['issuer']), validateBody(vcIssueCredential), async (req, res) => {
    res.status(201).json(await vc.issuance.issue(actorOf(res), { kind: 'default' }, bodyOf(req, IssueBody)));
  });

  r.post(below(vcIssueWithInstance), authorize(auth, ['issuer']), validateBody(vcIssueWithInstance), async (req, res) => {
    res.status(201).json(await vc.issuance.issue(actorOf(res), { kind: 'instance', id: pathParam(req, 'issuerId') }, bodyOf(req, IssueBody)));
  });

  r.post(below(vcCreateIssuer), authorize(auth, ['issuer']), validateBody(vcCreateIssuer), async (req, res) => {
    res.status(201).json(await vc.issuers.create(actorOf(res), bodyOf(req, CreateIssuerBody)));
  });

  r.get(below(vcListIssuers), authorize(auth, ['issuer']), async (_req, res) => {
    res.json(await vc.issuers.list(actorOf(res)));
  });

  r.post(below(vcDeriveCredential), authorize(auth, ['holder', 'issuer']), validateBody(vcDeriveCredential), async (req, res) => {
    res.status(201).json(await vc.derivation.derive(bodyOf(req, DeriveBody)));
  });

  r.post(below(vcVerifyCredential), authorize(auth, ['verifier']), validateBody(vcVerifyCredential), async (req, res) => {
    // `req` scopes the request's one verification budget (src/vc/net/request-budget.ts).
    sendVerification(res, await vc.verification.verifyCredential(bodyOf(req, VerifyCredentialBody), req));
  });

  r.post(below(vcVerifyPresentation), authorize(auth, ['verifier']), validateBody(vcVerifyPresentation), async (req, res) => {
    sendVerification(res, await vc.verification.verifyPresentation(bodyOf(req, VerifyPresentationBody), req));
  });

  r.post(below(vcUpdateStatus), authorize(auth, ['issuer']), validateBody(vcUpdateStatus), async (req, res) => {
    res.json(await vc.status.update(actorOf(res), bodyOf(req, UpdateStatusBody)));
  });

  // Public: verifiers anywhere dereference the lists credentials point to.
  r.get(below(vcStatusList), async (req, res) => {
    const list = await vc.status.published(pathParam(req, 'listId'));
    res.setHeader('Cache-Control', 'public, no-cache');
    res.setHeader('ETag', list.etag);
    if (etagMatches(req.get('If-None-Match'), list.etag)) {
      res.status(304).end();
      return;
    }
    res.json(list.document);
  });

  return r;
}

/**
 * RFC 9110 §13.1.2 If-None-Match, weak comparison. Not express's req.fresh: that ignores the
 * condition when the request says `Cache-Control: no-cache`, which fetch() adds to every
 * conditional request, so no fetch-based verifier would ever get its 304.
 */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = (t: string): string => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || opaque(t) === opaque(etag));
}
