import { Router } from 'express';
import type { SchemasService } from '../services/family-a/schemas.service';
import { pathParam } from './validate';

/**
 * Published documents that credentials link to, readable without an API key: a credential's
 * `credentialSchema.id` must resolve for any verifier.
 */
export function publicRoutes(schemas: SchemasService): Router {
  const r = Router();
  r.get('/t/:tenant/schema/:name', async (req, res) => {
    res.json(await schemas.publicBody(pathParam(req, 'tenant'), pathParam(req, 'name')));
  });
  r.get('/schema/:name', async (req, res) => {
    res.json(await schemas.publicBody(undefined, pathParam(req, 'name')));
  });
  return r;
}
