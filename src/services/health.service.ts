import type { SqlExecutor } from '../db/sql-executor';

export class HealthService {
  constructor(private readonly sql: SqlExecutor) {}

  async databaseReachable(): Promise<boolean> {
    try {
      await this.sql.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }
}
