/**
 * Statements a transaction sent without waiting for their answers (`TxExecutor.queryAtCommit`):
 * the transaction waits for them at COMMIT, and the first failure is what it throws.
 */
export class InFlight {
  private readonly sent: Promise<unknown>[] = [];

  add(statement: Promise<unknown>): void {
    // Awaited by `settled`; until then its failure must not count as unhandled.
    statement.catch(() => undefined);
    this.sent.push(statement);
  }

  /** Waits for every statement added so far; throws the first failure. */
  async settled(): Promise<void> {
    const failed = (await Promise.allSettled(this.sent.splice(0))).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
}
