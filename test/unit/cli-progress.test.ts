import { progress } from '../../src/cli/progress';

function sink(isTTY: boolean): { text: string[]; isTTY: boolean; write(s: string): void } {
  const text: string[] = [];
  return { text, isTTY, write: (s: string) => void text.push(s) };
}

describe('CLI progress', () => {
  test('on a terminal: one bar redrawn in place, a newline when the phase ends', () => {
    const out = sink(true);
    const bar = progress(out);
    bar.start('export acme', 4);
    bar.done(1);
    bar.done(3);
    bar.finish();
    expect(out.text).toEqual([
      `\rexport acme [${'.'.repeat(30)}] 0% (0/4)`,
      `\rexport acme [${'#'.repeat(8)}${'.'.repeat(22)}] 25% (1/4)`,
      `\rexport acme [${'#'.repeat(30)}] 100% (4/4)`,
      '\n',
    ]);
  });

  test('not a terminal: a line each time another step is done, never the same percentage twice', () => {
    const out = sink(false);
    const bar = progress(out, 25);
    bar.start('rotate', 10);
    for (let i = 0; i < 10; i++) bar.done(1);
    bar.finish();
    expect(out.text).toEqual(['rotate: 0% (0/10)\n', 'rotate: 30% (3/10)\n', 'rotate: 50% (5/10)\n', 'rotate: 80% (8/10)\n', 'rotate: 100% (10/10)\n']);
  });

  test('an empty phase is done at once; a new phase ends the previous bar', () => {
    const out = sink(true);
    const bar = progress(out);
    bar.start('a', 0);
    bar.start('b', 2);
    expect(out.text[0]).toMatch(/^\ra .* 100% \(0\/0\)$/);
    expect(out.text[1]).toBe('\n');
    expect(out.text[2]).toMatch(/^\rb /);
  });
});
