/**
 * The express route table, read once from the mounted routers, so that 405 answers and the `GET /`
 * index follow the routes that really exist instead of a hand-kept list.
 *
 * Only simple patterns are understood (literal segments and `:param` segments), which is every
 * route Credgate mounts; a route with any other syntax is left out, so its paths fall through to
 * express as before (404 for an unknown method) rather than being wrongly refused.
 */

export interface RouteEntry {
  /** The full pattern, mount prefixes included, e.g. `/api/issuer/schema/:schemaName`. */
  readonly pattern: string;
  /** Upper-case methods, or `'*'` for an endpoint whose handler accepts any method (e.g. /graphql). */
  readonly methods: ReadonlySet<string> | '*';
}

interface Segment {
  readonly literal?: string;
}

interface CompiledRoute extends RouteEntry {
  readonly segments: readonly Segment[];
  readonly params: number;
}

/** What express keeps about a layer (router v2); read-only use of its public-ish fields. */
interface LayerLike {
  readonly rawPath?: unknown;
  readonly slash?: boolean;
  readonly handle?: { readonly stack?: unknown };
  readonly route?: { readonly path?: unknown; readonly methods?: Record<string, boolean> };
}

const SIMPLE_SEGMENT = /^(?::[A-Za-z_$][\w$]*|[A-Za-z0-9._~-]+)$/;

function join(prefix: string, path: string): string {
  const joined = `${prefix.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  return joined.length > 1 ? joined.replace(/\/+$/, '') : '/';
}

/** The string paths of a layer's path (a string, or nested arrays of them; patterns of other kinds are left out). */
export function paths(raw: unknown): string[] {
  if (typeof raw === 'string') return [raw];
  if (Array.isArray(raw)) return raw.flat(Infinity).filter((p): p is string => typeof p === 'string');
  return [];
}

/** Walks a router's stack (recursing into mounted routers) and lists every route with its methods. */
export function collectRoutes(stack: readonly unknown[], prefix = ''): RouteEntry[] {
  const out: RouteEntry[] = [];
  for (const item of stack) {
    const layer = item as LayerLike;
    if (layer.route) {
      const methods = layer.route.methods ?? {};
      const all = methods['_all'] === true;
      const set = new Set(Object.keys(methods).filter((m) => methods[m] && m !== '_all').map((m) => m.toUpperCase()));
      for (const p of paths(layer.route.path)) out.push({ pattern: join(prefix, p), methods: all ? '*' : set });
      continue;
    }
    const mounts = layer.slash ? ['/'] : paths(layer.rawPath);
    const sub = layer.handle?.stack;
    for (const m of mounts) {
      if (Array.isArray(sub)) out.push(...collectRoutes(sub, join(prefix, m)));
      // A plain middleware mounted on a path of its own (Apollo on /graphql) is an endpoint that
      // decides methods itself; it claims that exact path only, never the paths below it.
      else if (m !== '/' && !layer.slash) out.push({ pattern: join(prefix, m), methods: '*' });
    }
  }
  return out;
}

function compile(entry: RouteEntry): CompiledRoute | undefined {
  const parts = entry.pattern.split('/').filter(Boolean);
  if (!parts.every((p) => SIMPLE_SEGMENT.test(p))) return undefined;
  const segments = parts.map((p) => (p.startsWith(':') ? {} : { literal: p.toLowerCase() }));
  return { ...entry, segments, params: segments.filter((s) => s.literal === undefined).length };
}

function matches(route: CompiledRoute, parts: readonly string[]): boolean {
  return (
    route.segments.length === parts.length &&
    route.segments.every((s, i) => (s.literal === undefined ? parts[i] !== '' : s.literal === parts[i]!.toLowerCase()))
  );
}

/** Segments as express sees them: one trailing slash is tolerated, empty inner segments are kept. */
function segmentsOf(path: string): string[] {
  const trimmed = path.replace(/^\//, '').replace(/\/$/, '');
  return trimmed === '' ? [] : trimmed.split('/');
}

export class RouteTable {
  /**
   * Routes by their lower-cased first literal segment ('' for `/`), and those starting with a
   * `:param`: every request asks (methodNotAllowed), so it compares the few routes that could
   * match instead of all of them.
   */
  private readonly byFirst = new Map<string, CompiledRoute[]>();
  private readonly paramFirst: CompiledRoute[] = [];

  constructor(entries: readonly RouteEntry[]) {
    for (const route of entries.map(compile)) {
      if (route === undefined) continue;
      const first = route.segments[0];
      if (first !== undefined && first.literal === undefined) {
        this.paramFirst.push(route);
        continue;
      }
      const key = first?.literal ?? '';
      const list = this.byFirst.get(key);
      if (list) list.push(route);
      else this.byFirst.set(key, [route]);
    }
  }

  /** Whether some route serves exactly this path (any method). */
  has(path: string): boolean {
    return this.allowed(path) !== undefined;
  }

  /**
   * The methods the path accepts: `undefined` when no route knows the path, `'*'` when any method
   * is up to its handler. Only the most specific routes count (fewest `:param` segments), so
   * `/credentials/verify` (POST) is not also `/credentials/:credentialId` (GET) — a credential
   * id never equals a literal route segment.
   */
  allowed(path: string): ReadonlySet<string> | '*' | undefined {
    const parts = segmentsOf(path);
    const literal = this.byFirst.get(parts.length === 0 ? '' : parts[0]!.toLowerCase()) ?? [];
    const hits = (parts.length === 0 ? literal : [...literal, ...this.paramFirst]).filter((r) => matches(r, parts));
    if (hits.length === 0) return undefined;
    const fewest = Math.min(...hits.map((r) => r.params));
    const best = hits.filter((r) => r.params === fewest);
    if (best.some((r) => r.methods === '*')) return '*';
    const methods = new Set<string>();
    for (const r of best) for (const m of r.methods as ReadonlySet<string>) methods.add(m);
    // express answers HEAD with the GET handler.
    if (methods.has('GET')) methods.add('HEAD');
    return methods;
  }
}
