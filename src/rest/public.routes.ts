import { Router } from 'express';
import type { SchemasService } from '../services/family-a/schemas.service';
import type { FamilyBCredentialsService } from '../services/family-b/credentials.service';
import { pathParam } from './validate';
import { integerQueryOf } from './middleware/validate-query';
import { publicSchema, publicTenantSchema } from '../contracts/service';

/**
 * Published documents that credentials link to, readable without an API key: a credential's
 * `credentialSchema.id` must resolve for any verifier.
 */
export function publicRoutes(schemas: SchemasService, credentials: FamilyBCredentialsService): Router {
  const r = Router();
  const tenantVersion = integerQueryOf(publicTenantSchema, 'version');
  const version = integerQueryOf(publicSchema, 'version');
  // W3C Bitstring Status List credentials, referenced from each credential's credentialStatus.
  r.get('/status/:listId', async (req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.json(await credentials.statusListCredential(pathParam(req, 'listId')));
  });
  // The same list for bbs-2023 template credentials: issued by the DID's BBS did:key (bbs-2023 proof).
  r.get('/status/:listId/bbs-2023', async (req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.json(await credentials.bbsStatusListCredential(pathParam(req, 'listId')));
  });
  r.get('/t/:tenant/schema/:name', async (req, res) => {
    res.json(await schemas.publicBody(pathParam(req, 'tenant'), pathParam(req, 'name'), tenantVersion(req)));
  });
  r.get('/schema/:name', async (req, res) => {
    res.json(await schemas.publicBody(undefined, pathParam(req, 'name'), version(req)));
  });
  return r;
}
