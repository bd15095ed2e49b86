import { Router } from 'express';
import type { AuthService } from '../../services/auth.service';
import { type SchemasService, toSchemaView } from '../../services/family-a/schemas.service';
import { actorOf } from '../context';
import { sendA } from '../envelopes';
import { authorize } from '../middleware/authorize';
import { pathParam } from '../validate';
import { bodyOf, validateBody } from '../middleware/validate-body';
import { CreateSchemaBody, createSchema } from '../../contracts/family-a/schemas';

export function schemaRoutes(auth: AuthService, schemas: SchemasService): Router {
  const r = Router();
  const issuer = authorize(auth, ['issuer']);

  r.post('/issuer/createSchema', issuer, validateBody(createSchema), async (req, res) => {
    sendA(res, 201, await schemas.create(actorOf(res), bodyOf(req, CreateSchemaBody)), 'Schema created and submited successfully');
  });

  r.get('/issuer/schemas', issuer, async (_req, res) => {
    sendA(res, 200, await schemas.list(actorOf(res)), 'Schema collection retrieved');
  });

  r.get('/issuer/schema/:schemaName', issuer, async (req, res) => {
    sendA(res, 200, toSchemaView(await schemas.get(actorOf(res), pathParam(req, 'schemaName'))), 'Schema retrieved');
  });

  return r;
}
