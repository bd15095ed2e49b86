import fs from 'node:fs';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { AppError } from '../../errors';
import { ASSET_PREFIX, GRAPHIQL_HTML, GRAPHIQL_INIT_JS } from './page';
import { packageAsset } from './assets';

/** A browser navigation (HTML preferred over JSON, no GraphQL query in the URL). */
function wantsPage(req: Request): boolean {
  return req.query['query'] === undefined && req.accepts(['application/json', 'text/html']) === 'text/html';
}

/**
 * GraphiQL at `GET /graphql` (browsers) and its assets under /graphql/assets. When the playground
 * is switched off, the page and the assets are 404 (in the GraphQL error shape, via `notFound`).
 * The assets are public: they are the same npm files for everyone and hold nothing of a tenant.
 */
export function graphiqlRoutes(opts: { enabled: boolean; notFound: (res: Response, e: AppError) => void }): Router {
  const router = Router();
  const missing = (res: Response) => opts.notFound(res, new AppError('NOT_FOUND', 'Not found'));
  router.get('/graphql', (req: Request, res: Response, next: NextFunction) => {
    if (!wantsPage(req)) return next();
    if (!opts.enabled) return missing(res);
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(GRAPHIQL_HTML);
  });
  router.get(`${ASSET_PREFIX}/:file`, (req: Request, res: Response) => {
    const file = req.params['file'];
    const name = typeof file === 'string' ? file : '';
    if (!opts.enabled) return missing(res);
    if (name === 'credgate-graphiql.js') {
      res.type('text/javascript').send(GRAPHIQL_INIT_JS);
      return;
    }
    const asset = packageAsset(name);
    if (!asset) return missing(res);
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type(asset.type);
    fs.createReadStream(asset.absolutePath)
      .on('error', () => {
        if (!res.headersSent) missing(res);
        else res.destroy();
      })
      .pipe(res);
  });
  return router;
}
