import type { SqlExecutor } from '../db/sql-executor';

export class HealthService {
  /**
   * @param timeoutMs the probe's own bound: a database that does not answer within it counts as
   * unreachable, so /readyz answers 503 promptly instead of hanging with the pool.
   */
  constructor(
    private readonly sql: SqlExecutor,
    private readonly timeoutMs: number = 2000,
  ) {}

  async databaseReachable(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), this.timeoutMs);
    });
    const probe = this.sql.query('SELECT 1').then(
      () => true,
      () => false,
    );
    try {
      return await Promise.race([probe, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }
}
