/**
 * A queue with one FIFO per owner (tenant). `shift` serves the owner whose last turn is the
 * oldest (an owner never served goes first, in arrival order), so whatever one owner has
 * queued, another owner's first item waits for at most one item of each other owner. Each
 * owner's FIFO is bounded, so a flood fills its own FIFO, not everyone's.
 */
export class FairQueue<T> {
  /** Owners with queued items, in the order they started queueing. */
  private readonly byOwner = new Map<string, T[]>();
  /** Sequence number of each owner's last turn (kept after its FIFO empties, pruned when large). */
  private readonly lastServed = new Map<string, number>();
  private turn = 0;
  private total = 0;

  constructor(private readonly maxPerOwner: number = Number.POSITIVE_INFINITY) {}

  /** False (and nothing queued) when this owner's FIFO is full. */
  push(owner: string, item: T): boolean {
    const fifo = this.byOwner.get(owner);
    if ((fifo?.length ?? 0) >= this.maxPerOwner) return false;
    if (fifo) fifo.push(item);
    else this.byOwner.set(owner, [item]);
    this.total++;
    return true;
  }

  /** The next item in fair order among owners for which `eligible` holds. */
  shift(eligible: (owner: string) => boolean = () => true): { owner: string; item: T } | undefined {
    let best: string | undefined;
    let bestTurn = Number.POSITIVE_INFINITY;
    for (const owner of this.byOwner.keys()) {
      if (!eligible(owner)) continue;
      const t = this.lastServed.get(owner) ?? -1;
      if (t < bestTurn) {
        best = owner;
        bestTurn = t;
      }
    }
    if (best === undefined) return undefined;
    const fifo = this.byOwner.get(best)!;
    const item = fifo.shift() as T;
    this.total--;
    if (fifo.length === 0) this.byOwner.delete(best);
    this.lastServed.set(best, ++this.turn);
    this.prune();
    return { owner: best, item };
  }

  /** Removes one specific item (a waiter that gave up); true when it was queued. */
  remove(owner: string, item: T): boolean {
    const fifo = this.byOwner.get(owner);
    const at = fifo ? fifo.indexOf(item) : -1;
    if (!fifo || at < 0) return false;
    fifo.splice(at, 1);
    this.total--;
    if (fifo.length === 0) this.byOwner.delete(owner);
    return true;
  }

  /** Removes and returns the owner's most recently queued item (load shedding drops the newest). */
  popNewest(owner: string): T | undefined {
    const fifo = this.byOwner.get(owner);
    if (!fifo || fifo.length === 0) return undefined;
    const item = fifo.pop() as T;
    this.total--;
    if (fifo.length === 0) this.byOwner.delete(owner);
    return item;
  }

  /** Items queued for one owner, or for all when no owner is given. */
  depth(owner?: string): number {
    return owner === undefined ? this.total : (this.byOwner.get(owner)?.length ?? 0);
  }

  /** Empties the queue, returning everything in it. */
  drain(): T[] {
    const all = [...this.byOwner.values()].flat();
    this.byOwner.clear();
    this.total = 0;
    return all;
  }

  /** Forgetting idle owners' turns only makes them newcomers again, which is fair enough. */
  private prune(): void {
    if (this.lastServed.size <= 10_000) return;
    for (const owner of this.lastServed.keys()) if (!this.byOwner.has(owner)) this.lastServed.delete(owner);
  }
}
