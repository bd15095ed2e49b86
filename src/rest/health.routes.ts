import { Router } from 'express';
import type { HealthService } from '../services/health.service';
import type { ReadRouter } from '../db/read-replica';

/**
 * Liveness and readiness; no API key, so orchestrators can probe them. With a read replica,
 * readiness also reports it (ok, lagging, down, not-a-standby, its lag, and the reads served by
 * each side); a replica that is not ok does not make the instance unready, since its reads then
 * go to the primary.
 */
export function healthRoutes(health: HealthService, replica?: ReadRouter): Router {
  const r = Router();
  r.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  r.get('/readyz', async (_req, res) => {
    const ok = await health.databaseReachable();
    // reads: where the read-only operations' reads went since start (counts, not secrets).
    const readReplica = replica ? { readReplica: { ...replica.state(), reads: { ...replica.stats } } } : {};
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'unavailable', database: ok ? 'ok' : 'unreachable', ...readReplica });
  });
  return r;
}
