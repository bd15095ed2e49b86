/**
 * `credgate start --workers N`: the worker count (flag over variable, bounds) and the restart
 * bound of the cluster primary. The cluster itself runs in test/e2e/cli-workers.e2e.test.ts.
 */
import { ConfigError } from '../../src/config/settings';
import { UsageError } from '../../src/cli/parse';
import { RestartBudget } from '../../src/cli/restart-budget';
import { MAX_WORKERS, refuseEmbeddedCluster, workerCount } from '../../src/cli/start';

describe('worker count', () => {
  test('the flag wins over CREDGATE_WORKERS; neither means one process', () => {
    expect(workerCount(undefined, {})).toBe(1);
    expect(workerCount(undefined, { CREDGATE_WORKERS: '3' })).toBe(3);
    expect(workerCount('2', { CREDGATE_WORKERS: '3' })).toBe(2);
    expect(workerCount(String(MAX_WORKERS), {})).toBe(MAX_WORKERS);
  });

  test.each(['0', '-1', '1.5', 'two', '', String(MAX_WORKERS + 1)])('--workers %p is a usage error', (flag) => {
    expect(() => workerCount(flag, {})).toThrow(UsageError);
  });

  test.each(['0', 'x', String(MAX_WORKERS + 1)])('CREDGATE_WORKERS=%p is a configuration error', (value) => {
    expect(() => workerCount(undefined, { CREDGATE_WORKERS: value })).toThrow(new ConfigError(`CREDGATE_WORKERS must be an integer from 1 to ${MAX_WORKERS}`));
  });

  test('more than one worker on the embedded database is refused in one line; PostgreSQL or one worker is not', () => {
    expect(() => refuseEmbeddedCluster(2, {})).toThrow(ConfigError);
    expect(() => refuseEmbeddedCluster(2, { DATABASE_URL: '  ' })).toThrow(/^--workers 2 needs DATABASE_URL: [^\n]+$/);
    expect(() => refuseEmbeddedCluster(1, {})).not.toThrow();
    expect(() => refuseEmbeddedCluster(4, { DATABASE_URL: 'postgres://db/credgate' })).not.toThrow();
  });
});

describe('restart bound', () => {
  test('at most max restarts within the window; older ones stop counting as the window slides', () => {
    const budget = new RestartBudget(3, 60_000);
    expect([0, 10, 20].map((t) => budget.take(t))).toEqual([true, true, true]);
    expect(budget.take(59_999)).toBe(false);
    // The refused attempt was not recorded: at 60 000 only the first restart has left the window.
    expect(budget.take(60_000)).toBe(true);
    expect(budget.take(60_001)).toBe(false);
    expect(budget.take(60_020)).toBe(true);
  });
});
