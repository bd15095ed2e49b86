import fs from 'node:fs';
import path from 'node:path';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { AppError } from '../../errors';
import { DOCS_ASSET_PREFIX, DOCS_HTML, DOCS_INIT_JS, swaggerFile } from './docs-page';
import { buildOpenApiDocument } from './document';

/**
 * Routes that are mounted but deliberately not in the OpenAPI document: the static files of the
 * browser pages (/graphql's GraphiQL, /docs and the /wallets operator page). They are not API operations; the contract
 * test reads this list.
 */
export const UNDOCUMENTED_ROUTES: readonly string[] = ['/graphql/assets/:file', `${DOCS_ASSET_PREFIX}/:file`, '/wallets/assets/:file'];

/** The package version (src/ and dist/ sit at the same depth below package.json). */
function packageVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
}

export interface OpenApiRoutesOptions {
  /** CREDGATE_API_DOCS: when off, /docs and its files are not mounted (404) and not documented. */
  readonly docs: boolean;
  /** CREDGATE_VC_API_BASE: the VC-API paths are documented where they are served. */
  readonly vcApiBase?: string;
}

/** `GET /openapi.json` (no API key) and, when enabled, the offline Swagger UI page at `GET /docs`. */
export function openapiRoutes(options: OpenApiRoutesOptions): Router {
  const r = Router();
  let document: Record<string, unknown> | undefined;
  r.get('/openapi.json', (_req, res) => {
    document ??= buildOpenApiDocument({ version: packageVersion(), docs: options.docs, ...(options.vcApiBase !== undefined ? { vcApiBase: options.vcApiBase } : {}) });
    res.setHeader('Cache-Control', 'no-cache');
    res.json(document);
  });
  if (!options.docs) return r;

  r.get('/docs', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(DOCS_HTML);
  });
  r.get(`${DOCS_ASSET_PREFIX}/:file`, (req: Request, res: Response, next: NextFunction) => {
    const name = String(req.params['file']);
    if (name === 'credgate-docs.js') {
      res.type('text/javascript').send(DOCS_INIT_JS);
      return;
    }
    const file = swaggerFile(name);
    if (!file) return next(new AppError('NOT_FOUND', 'Not found'));
    // sendFile sets the content type from the extension (text/css, text/javascript, image/png).
    res.sendFile(file, { maxAge: '1h', dotfiles: 'deny' }, (err) => {
      if (err && !res.headersSent) next(new AppError('NOT_FOUND', 'Not found'));
    });
  });
  return r;
}
