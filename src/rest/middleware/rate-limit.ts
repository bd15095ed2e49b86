import type { NextFunction, Request, Response } from 'express';
import { runAsTenant } from '../../fairness/tenant-context';
import type { Services } from '../../services';
import { optionalActor } from './optional-actor';

/**
 * Oracle-shaped operations: each answer tells the caller something about a secret or a sealed
 * record, so each call counts against the caller's API-key budget. Family A paths are served bare
 * and under /api. Express routes case-insensitively and ignores one trailing slash; so do these.
 */
const ORACLE_PATHS = [
  /^(\/api)?\/verifier\/verify\/?$/i,
  /^(\/api)?\/user\/decrypt\/?$/i,
  /^(\/api)?\/user\/image\/compare\/?$/i,
  /^\/credentials\/verify\/?$/i,
  /^\/verify-vp\/?$/i,
  /^\/verifyZkpToken\/?$/i,
  /^\/signature\/verify\/?$/i,
];

/** Keyless published documents: limited per client address. */
const PUBLIC_PATHS = [/^\/status\/[^/]+\/?$/i, /^\/status\/[^/]+\/bbs-2023\/?$/i, /^\/token-status-lists\/[^/]+\/?$/i, /^\/schema\/[^/]+\/?$/i, /^\/t\/[^/]+\/schema\/[^/]+\/?$/i];

/** Face uploads wait in the face engine's own fair queue; they must not also hold a write slot. */
const NOT_WRITES = [/^(\/api)?\/user\/(image\/)?createTemplate\/?$/i];
/**
 * Family B issuance and revocation: their batches take the tenant's write slot per transaction
 * (PrismaCredentialRepository), so the request must not hold one while it waits for its batch.
 */
const SEQUENCED_WRITES: readonly { method: string; path: RegExp }[] = [
  { method: 'POST', path: /^\/credentials\/?$/i },
  { method: 'DELETE', path: /^\/credentials\/[^/]+\/?$/i },
];

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Traffic control for REST, before any route: per-IP limits on public routes, per-API-key limits
 * on oracle-shaped operations, and one per-tenant fair write slot for every other write.
 * Per-credential limits live in the services (they need the parsed credential).
 */
export function rateLimits(services: Services) {
  // The VC-API's verify routes are oracles like the others; its status lists are keyless documents.
  const base = services.vcApi.base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const oraclePaths = [...ORACLE_PATHS, new RegExp(`^${base}/(credentials|presentations)/verify/?$`, 'i')];
  const publicPaths = [...PUBLIC_PATHS, new RegExp(`^${base}/status-lists/[^/]+/?$`, 'i')];
  // bbs-2023 derivation writes nothing and waits in the BBS worker pool's own fair queue.
  const notWrites = [...NOT_WRITES, new RegExp(`^${base}/credentials/derive/?$`, 'i')];
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const path = req.path;
      if (READ_METHODS.has(req.method)) {
        if (publicPaths.some((p) => p.test(path))) await services.rateLimits.forClient(req.ip ?? req.socket.remoteAddress ?? 'unknown');
        next();
        return;
      }
      // Listen first: a client that leaves during authentication or while queued has already
      // fired 'close' by the time its slot is granted ('close' also follows 'finish').
      let gone = false;
      let release: (() => void) | undefined;
      const done = (): void => {
        gone = true;
        release?.();
      };
      res.once('finish', done);
      res.once('close', done);
      const actor = await optionalActor(services.auth, req, res);
      if (!actor) {
        next();
        return;
      }
      const oracle = oraclePaths.some((p) => p.test(path));
      if (oracle) await services.rateLimits.forApiKey(actor);
      const sequenced = SEQUENCED_WRITES.some((w) => w.method === req.method && w.path.test(path));
      if (oracle || sequenced || notWrites.some((p) => p.test(path))) {
        runAsTenant(actor.tenantId, next);
        return;
      }
      release = await services.writes.acquire(actor.tenantId);
      if (gone || res.destroyed || req.socket.destroyed) {
        // Nobody is waiting for the answer: give the slot back and do not run the write.
        release();
        return;
      }
      runAsTenant(actor.tenantId, next);
    } catch (e) {
      next(e);
    }
  };
}
