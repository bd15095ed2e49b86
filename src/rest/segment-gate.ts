import type { NextFunction, Request, Response } from 'express';
import { paths } from './route-table';

/**
 * Routers entered only by the requests they can serve.
 *
 * Express walks every mounted router for every request: each router layer is matched, entered
 * (`trimPrefix`, `restore`, parameter processing) and each of its routes matched in turn, before
 * the request reaches the router that serves it. With every family mounted at the root that was
 * about 150 regular-expression matches per request, 6–7 % of a Family B issuance's CPU
 * (docs/BENCHMARKS.md). A gated router is skipped when the request's first path segment is none
 * of the first segments its routes and mounts can match; otherwise it is entered exactly as before.
 *
 * Skipping is sound only when it is what the router would have done anyway, so a router is gated
 * only when every layer in it (recursively) starts with a plain literal segment. One mounted at the
 * root with a non-error middleware, or with a `:param`, wildcard or other pattern as its first
 * segment, is always entered. Error handlers (four arguments) are ignored: express hands an error
 * only to the error handlers of the router it was raised in, never to a sibling router, and a
 * router (three arguments) is not entered while an error is pending, gated or not.
 */

/** What express keeps about a layer (router v2); read-only use of its public-ish fields. */
interface LayerLike {
  readonly rawPath?: unknown;
  readonly slash?: boolean;
  readonly handle?: { readonly length?: number; readonly stack?: unknown };
  readonly route?: { readonly path?: unknown };
}

/** A segment express matches literally (path-to-regexp: no `:`, `*`, `{`, `(`, `?`, `+`). */
const LITERAL = /^[A-Za-z0-9._~-]*$/;

/** The lower-cased first segment of a pattern ('' for '/'), or null when it is not a plain literal. */
function firstLiteral(pattern: string): string | null {
  if (!pattern.startsWith('/')) return null;
  const first = pattern.slice(1).split('/')[0]!;
  return LITERAL.test(first) ? first.toLowerCase() : null;
}

/**
 * The first segments any layer of `stack` can match, or null when some layer could match a path
 * whatever its first segment (the router must then always be entered).
 */
export function firstSegments(stack: readonly unknown[]): Set<string> | null {
  const out = new Set<string>();
  for (const item of stack) {
    const layer = item as LayerLike;
    if (layer.route) {
      const patterns = paths(layer.route.path);
      if (patterns.length === 0) return null;
      for (const p of patterns) {
        const first = firstLiteral(p);
        if (first === null) return null;
        out.add(first);
      }
      continue;
    }
    // An error handler runs only for errors raised inside this router, i.e. on a path it matched.
    if (layer.handle?.length === 4) continue;
    const sub = layer.handle?.stack;
    const mounts = layer.slash ? ['/'] : paths(layer.rawPath);
    if (mounts.length === 0) return null;
    for (const m of mounts) {
      if (m === '/') {
        // A root-mounted router adds its own routes' segments; a root-mounted middleware sees every path.
        if (!Array.isArray(sub)) return null;
        const inner = firstSegments(sub);
        if (inner === null) return null;
        for (const s of inner) out.add(s);
        continue;
      }
      const first = firstLiteral(m);
      if (first === null) return null;
      out.add(first);
    }
  }
  return out;
}

/** The request's first path segment as the router matches it: raw (not decoded), lower-cased. */
function firstSegmentOf(req: Request): string {
  const path = req.path;
  const end = path.indexOf('/', 1);
  return (end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

type Handler = ((req: Request, res: Response, next: NextFunction) => void) & { readonly stack: unknown[] };

/**
 * `router`, entered only by requests whose first segment it can match. The segments are read on
 * the first request (when the router is complete); the router's `stack` stays visible, so the
 * route table (src/rest/route-table.ts) still sees through the gate.
 */
export function gated(router: Handler): Handler {
  let segments: Set<string> | null | undefined;
  const gate = (req: Request, res: Response, next: NextFunction): void => {
    if (segments === undefined) segments = firstSegments(router.stack);
    if (segments !== null && !segments.has(firstSegmentOf(req))) return next();
    router(req, res, next);
  };
  Object.defineProperty(gate, 'stack', { get: () => router.stack });
  return gate as Handler;
}
