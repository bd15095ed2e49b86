import { Router } from 'express';
import type { AuthService } from '../../services/auth.service';
import { MAX_TEMPLATE_PAGE, type TemplatesService } from '../../services/family-b/templates.service';
import { actorOf } from '../context';
import { authorize } from '../middleware/authorize';
import { pathParam } from '../validate';
import { bodyOf, validateBody } from '../middleware/validate-body';
import { integerQueryOf, stringQueryOf } from '../middleware/validate-query';
import { TemplateBody, createTemplate, listTemplates, updateTemplate } from '../../contracts/family-b/templates';

export function templateRoutes(auth: AuthService, templates: TemplatesService): Router {
  const r = Router();
  const issuer = authorize(auth, ['issuer']);
  const first = integerQueryOf(listTemplates, 'first');
  const after = stringQueryOf(listTemplates, 'after');

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
    const asked = { first: first(req), after: after(req) };
    const paged = asked.first !== undefined || asked.after !== undefined;
    const page = await templates.list(actorOf(res), paged ? { ...(asked.first !== undefined ? { first: asked.first } : {}), ...(asked.after !== undefined ? { after: asked.after } : {}) } : { first: MAX_TEMPLATE_PAGE });
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
