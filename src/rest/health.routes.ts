import { Router } from 'express';
import type { HealthService } from '../services/health.service';

/** Liveness and readiness; no API key, so orchestrators can probe them. */
export function healthRoutes(health: HealthService): Router {
  const r = Router();
  r.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  r.get('/readyz', async (_req, res) => {
    const ok = await health.databaseReachable();
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'unavailable', database: ok ? 'ok' : 'unreachable' });
  });
  return r;
}
