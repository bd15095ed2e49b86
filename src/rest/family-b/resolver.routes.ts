import { Router } from 'express';
import type { AuthService } from '../../services/auth.service';
import type { DidsService, ResolutionErrorCode } from '../../services/dids.service';
import { authorize } from '../middleware/authorize';
import { pathParam } from '../validate';

/** HTTP statuses of the DIF Universal Resolver driver interface. */
const RESOLUTION_STATUS: Record<ResolutionErrorCode, number> = {
  invalidDid: 400,
  notFound: 404,
  methodNotSupported: 501,
};

export function resolverRoutes(auth: AuthService, dids: DidsService): Router {
  const r = Router();
  const anyScope = authorize(auth, []);

  r.get('/resolve/:did', anyScope, async (req, res) => {
    res.type('application/did+ld+json').json(await dids.resolveDocument(pathParam(req, 'did')));
  });

  r.get('/1.0/identifiers/:did', anyScope, async (req, res) => {
    const result = await dids.resolve(pathParam(req, 'did'));
    const err = result.didResolutionMetadata.error;
    const status = err ? RESOLUTION_STATUS[err] : result.didDocumentMetadata.deactivated ? 410 : 200;
    res.status(status).type('application/ld+json;profile="https://w3id.org/did-resolution"').json({
      '@context': 'https://w3id.org/did-resolution/v1',
      ...result,
    });
  });

  return r;
}
