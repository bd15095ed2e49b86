/**
 * How many worker restarts the cluster primary allows: at most `max` within any `windowMs`. A
 * worker that keeps dying (a bad deploy, a poisoned request it meets again at once) would
 * otherwise be restarted in a tight loop forever, each time reopening database pools and
 * reloading the service; past the bound the primary stops and exits 1 so a supervisor
 * (systemd, Kubernetes) sees the failure.
 */
export class RestartBudget {
  private readonly times: number[] = [];

  constructor(
    readonly max: number,
    readonly windowMs: number,
  ) {}

  /** Records a restart at `now` (ms); false when it would exceed the bound (then nothing is recorded). */
  take(now: number): boolean {
    while (this.times.length > 0 && now - this.times[0]! >= this.windowMs) this.times.shift();
    if (this.times.length >= this.max) return false;
    this.times.push(now);
    return true;
  }
}
