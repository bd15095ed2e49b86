import { Router } from 'express';
import { tokenStatusList } from '../../contracts/service';
import { STATUS_LIST_JWT_MEDIA_TYPE } from '../../formats/token-status-list';
import type { TokenStatusListService } from '../../services/token-status-list.service';
import { pathParam } from '../validate';

/** RFC 9110 §13.1.2 If-None-Match, weak comparison (fetch() adds Cache-Control: no-cache, so not req.fresh). */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = (t: string): string => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || opaque(t) === opaque(etag));
}

/**
 * Public: Status List Tokens, dereferenced by any verifier from `status.status_list.uri`. The
 * stored token is served as is (signing happens only when the bits changed), with an ETag so a
 * verifier that polls pays a 304.
 */
export function tokenStatusRoutes(tokenStatus: TokenStatusListService): Router {
  const r = Router();
  r.get(tokenStatusList.paths[0]!, async (req, res) => {
    const published = await tokenStatus.token(pathParam(req, 'listId'));
    res.setHeader('Cache-Control', 'public, no-cache');
    res.setHeader('ETag', published.etag);
    if (etagMatches(req.get('If-None-Match'), published.etag)) {
      res.status(304).end();
      return;
    }
    res.type(STATUS_LIST_JWT_MEDIA_TYPE).send(published.token);
  });
  return r;
}
