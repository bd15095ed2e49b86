import type { Request } from 'express';
import { type PresentedCredential, presentedCredential } from '../../domain/tenancy/credential';

/** The credential of a REST or GraphQL request: X-API-Key and/or Authorization: Bearer (any capitalisation). */
export function credentialOf(req: Request): PresentedCredential {
  return presentedCredential(req.get('x-api-key'), req.get('authorization'));
}
