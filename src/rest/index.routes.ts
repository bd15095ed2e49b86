import { Router } from 'express';
import type { RouteTable } from './route-table';

/** Entry points a newcomer looks for; each is listed only when this build mounts it. */
const CANDIDATES: readonly { readonly rel: string; readonly path: string; readonly title: string }[] = [
  { rel: 'graphql', path: '/graphql', title: 'GraphQL endpoint (a browser GET opens GraphiQL)' },
  { rel: 'docs', path: '/docs', title: 'API reference' },
  { rel: 'wallets', path: '/wallets', title: 'Operator page: offer credentials to wallets and ask wallets for presentations by QR code' },
  { rel: 'openapi', path: '/openapi.json', title: 'OpenAPI document' },
  { rel: 'healthz', path: '/healthz', title: 'liveness probe' },
  { rel: 'readyz', path: '/readyz', title: 'readiness probe (database)' },
];

const ABOUT = 'Credgate issues and verifies W3C-style verifiable credentials over GraphQL and REST.';
const AUTH = 'API routes need an X-API-Key header; this index and the probes do not.';

function page(links: readonly { rel: string; path: string; title: string }[]): string {
  // Every value here is a constant of this file, so nothing needs escaping.
  const items = links.map((l) => `<li><a href="${l.path}"><code>${l.path}</code></a> — ${l.title}</li>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Credgate</title></head><body><h1>Credgate</h1><p>${ABOUT}</p><ul>${items}</ul><p>${AUTH}</p></body></html>`;
}

/** `GET /`: a small index (JSON, or HTML for browsers) of the service's entry points; no API key. */
export function indexRoutes(table: () => RouteTable): Router {
  const r = Router();
  r.get('/', (req, res) => {
    const routes = table();
    const links = CANDIDATES.filter((c) => routes.has(c.path));
    res.vary('Accept');
    if (req.accepts(['application/json', 'text/html']) === 'text/html') {
      res.type('html').send(page(links));
      return;
    }
    res.json({
      name: 'credgate',
      description: ABOUT,
      authentication: AUTH,
      links: Object.fromEntries(links.map((l) => [l.rel, { href: l.path, title: l.title }])),
    });
  });
  return r;
}
