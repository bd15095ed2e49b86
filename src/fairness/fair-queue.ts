/**
 * A queue with one FIFO per owner (tenant), served round-robin: whatever one owner has queued,
 * another owner's first item is at most one turn away. Each owner's FIFO is bounded, so a flood
 * fills its own FIFO, not everyone's.
 */
export class FairQueue<T> {
  private readonly byOwner = new Map<string, T[]>();
  /** Owners with queued items, in serving order; `cursor` is the next one to serve. */
  private ring: string[] = [];
  private cursor = 0;
  private total = 0;

  constructor(private readonly maxPerOwner: number = Number.POSITIVE_INFINITY) {}

  /** False (and nothing queued) when this owner's FIFO is full. */
  push(owner: string, item: T): boolean {
    let fifo = this.byOwner.get(owner);
    if (fifo && fifo.length >= this.maxPerOwner) return false;
    if (!fifo) {
      if (this.maxPerOwner < 1) return false;
      fifo = [];
      this.byOwner.set(owner, fifo);
      // A newcomer is served before owners that already had their turn in this round.
      this.ring.splice(this.cursor, 0, owner);
    }
    fifo.push(item);
    this.total++;
    return true;
  }

  /** The next item in round-robin order among owners for which `eligible` holds. */
  shift(eligible: (owner: string) => boolean = () => true): { owner: string; item: T } | undefined {
    const n = this.ring.length;
    for (let step = 0; step < n; step++) {
      const i = (this.cursor + step) % n;
      const owner = this.ring[i]!;
      if (!eligible(owner)) continue;
      const fifo = this.byOwner.get(owner)!;
      const item = fifo.shift() as T;
      this.total--;
      if (fifo.length === 0) {
        this.byOwner.delete(owner);
        this.ring.splice(i, 1);
        this.cursor = this.ring.length === 0 ? 0 : i % this.ring.length;
      } else {
        this.cursor = (i + 1) % n;
      }
      return { owner, item };
    }
    return undefined;
  }

  /** Removes one specific item (a waiter that gave up); true when it was queued. */
  remove(owner: string, item: T): boolean {
    const fifo = this.byOwner.get(owner);
    const at = fifo ? fifo.indexOf(item) : -1;
    if (!fifo || at < 0) return false;
    fifo.splice(at, 1);
    this.total--;
    if (fifo.length === 0) {
      this.byOwner.delete(owner);
      const i = this.ring.indexOf(owner);
      this.ring.splice(i, 1);
      if (i < this.cursor) this.cursor--;
      if (this.cursor >= this.ring.length) this.cursor = 0;
    }
    return true;
  }

  /** Items queued for one owner, or for all when no owner is given. */
  depth(owner?: string): number {
    return owner === undefined ? this.total : (this.byOwner.get(owner)?.length ?? 0);
  }

  /** Empties the queue, returning everything in it. */
  drain(): T[] {
    const all = [...this.byOwner.values()].flat();
    this.byOwner.clear();
    this.ring = [];
    this.cursor = 0;
    this.total = 0;
    return all;
  }
}
