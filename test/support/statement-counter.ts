import { PGlite } from '@electric-sql/pglite';
import { Client } from 'pg';

/**
 * Counts the SQL statements this process sends to the database, whichever driver carries them:
 * node-postgres (every Pool query goes through Client#query) or PGlite (query/exec, also inside
 * transactions). Tests read the count around one request of an in-process server to hold the
 * statements per operation to a budget — a count, never a time.
 */
export class StatementCounter {
  private count = 0;
  /** The statements' text, kept while `recording` (to see which round trips a path makes). */
  readonly texts: string[] = [];
  recording = false;
  private readonly restore: (() => void)[] = [];

  install(): this {
    this.wrap(Client.prototype as unknown as Record<string, unknown>, 'query');
    const pglite = PGlite.prototype as unknown as Record<string, unknown>;
    this.wrap(pglite, 'query');
    this.wrap(pglite, 'exec');
    // PGlite runs transaction statements on a Transaction object, not on the instance.
    const original = pglite['transaction'] as (fn: (tx: Record<string, unknown>) => Promise<unknown>) => Promise<unknown>;
    const counter = this;
    pglite['transaction'] = function (this: unknown, fn: (tx: Record<string, unknown>) => Promise<unknown>) {
      counter.count += 2; // BEGIN, COMMIT
      return original.call(this, (tx) => {
        counter.wrap(tx, 'query', false);
        counter.wrap(tx, 'exec', false);
        return fn(tx);
      });
    };
    this.restore.push(() => (pglite['transaction'] = original));
    return this;
  }

  uninstall(): void {
    for (const undo of this.restore.splice(0).reverse()) undo();
  }

  /** Statements sent while `fn` ran (and its response was produced). */
  async during<T>(fn: () => Promise<T>): Promise<{ result: T; statements: number }> {
    const before = this.count;
    const result = await fn();
    return { result, statements: this.count - before };
  }

  private wrap(target: Record<string, unknown>, name: string, undoable = true): void {
    const original = target[name] as (...args: unknown[]) => unknown;
    const counter = this;
    target[name] = function (this: unknown, ...args: unknown[]) {
      counter.count += 1;
      if (counter.recording) counter.texts.push(statementText(args[0]));
      return original.apply(this, args);
    };
    if (undoable) this.restore.push(() => (target[name] = original));
  }
}

function statementText(arg: unknown): string {
  const text = typeof arg === 'string' ? arg : typeof arg === 'object' && arg !== null && 'text' in arg ? String((arg as { text: unknown }).text) : String(arg);
  return text.replace(/\s+/g, ' ').slice(0, 160);
}
