/**
 * Progress of long work, on stderr (stdout stays the command's result). On a terminal: one bar
 * redrawn in place; otherwise (logs, CI): a line each time another `step` percent is done.
 */
export interface Progress {
  start(label: string, total: number): void;
  done(n: number): void;
  finish(): void;
}

export interface ProgressStream {
  readonly isTTY?: boolean;
  write(s: string): unknown;
}

export function progress(stream: ProgressStream, step = 10): Progress {
  let label = '';
  let total = 0;
  let count = 0;
  let lastPct = -1;
  const tty = stream.isTTY === true;
  const pct = (): number => (total === 0 ? 100 : Math.min(100, Math.floor((count * 100) / total)));
  const draw = (): void => {
    const p = pct();
    if (tty) {
      const width = 30;
      const filled = Math.round((p * width) / 100);
      stream.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p}% (${count}/${total})`);
    } else if (p >= lastPct + step || (p === 100 && lastPct !== 100)) {
      lastPct = p - (p % step);
      if (p === 100) lastPct = 100;
      stream.write(`${label}: ${p}% (${count}/${total})\n`);
    }
  };
  const finish = (): void => {
    if (tty && label !== '') stream.write('\n');
    label = '';
  };
  return {
    start(l, t) {
      finish();
      label = l;
      total = t;
      count = 0;
      lastPct = -step;
      draw();
    },
    done(n) {
      count += n;
      draw();
    },
    finish,
  };
}
