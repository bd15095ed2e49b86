import { Router } from 'express';
import type { AuthService } from '../../services/auth.service';
import { MAX_TEMPLATE_PAGE, type TemplatesService } from '../../services/family-b/templates.service';
import { invalidInput } from '../../errors';
import { actorOf } from '../context';
import { authorize } from '../middleware/authorize';
import { pathParam } from '../validate';
import { bodyOf, validateBody } from '../middleware/validate-body';
import { TemplateBody, createTemplate, updateTemplate } from '../../contracts/family-b/templates';

export function templateRoutes(auth: AuthService, templates: TemplatesService): Router {
  const r = Router();
  const issuer = authorize(auth, ['issuer']);

  r.post('/vc-templates', issuer, validateBody(createTemplate), async (req, res) => {
    res.status(201).json(await templates.create(actorOf(res), bodyOf(req, TemplateBody)));
  });

  /*
   * Two forms. With `?first` or `?after`: one page as `{ items, hasMore, next, total }` (the
   * strong form; follow `next` until it is null). Without: the reference's bare array, capped at
   * MAX_TEMPLATE_PAGE, with `X-Total-Count`, `X-Has-More` and a `Link: rel="next"` header so a
   * client can tell a complete list from a truncated one.
   */
  r.get('/vc-templates', issuer, async (req, res) => {
    const paged = req.query['first'] !== undefined || req.query['after'] !== undefined;
    const page = await templates.list(actorOf(res), paged ? pageQuery(req.query) : { first: MAX_TEMPLATE_PAGE });
    if (paged) {
      res.json({ items: page.items, hasMore: page.hasMore, next: page.next, total: page.total });
      return;
    }
    res.setHeader('X-Total-Count', String(page.total));
    res.setHeader('X-Has-More', String(page.hasMore));
    if (page.next !== null) res.setHeader('Link', `</vc-templates?first=${MAX_TEMPLATE_PAGE}&after=${page.next}>; rel="next"`);
    res.json(page.items);
  });

  // The reference labels this success 201; kept for compatibility although nothing is created.
  r.get('/vc-templates/:templateName', issuer, async (req, res) => {
    res.status(201).json(await templates.getByName(actorOf(res), pathParam(req, 'templateName')));
  });

  r.put('/vc-templates/:templateId', issuer, validateBody(updateTemplate), async (req, res) => {
    res.json(await templates.update(actorOf(res), pathParam(req, 'templateId'), bodyOf(req, TemplateBody)));
  });

  r.delete('/vc-templates/:templateId', issuer, async (req, res) => {
    await templates.delete(actorOf(res), pathParam(req, 'templateId'));
    res.json({ message: 'Template deleted', templateId: pathParam(req, 'templateId') });
  });

  return r;
}

/** `?first=<1-500>&after=<templateId>`; each at most once, `first` a plain decimal. */
function pageQuery(query: Record<string, unknown>): { first?: number; after?: string } {
  const { first, after } = query;
  if (first !== undefined && (typeof first !== 'string' || !/^[0-9]{1,4}$/.test(first))) throw invalidInput(`first must be an integer from 1 to ${MAX_TEMPLATE_PAGE}`, [{ field: 'first', message: 'not an integer' }]);
  if (after !== undefined && typeof after !== 'string') throw invalidInput('after must be given once', [{ field: 'after', message: 'repeated' }]);
  return { ...(first !== undefined ? { first: Number(first) } : {}), ...(after !== undefined ? { after } : {}) };
}
