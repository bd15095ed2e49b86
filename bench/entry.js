'use strict';
const fs = require('node:fs');

/**
 * A benchmark's command line: `--report=<results.json>` re-renders saved results as the Markdown
 * table docs/BENCHMARKS.md holds; otherwise the benchmark runs, and a failure exits non-zero with its stack.
 */
function runOrReport(args, main, render) {
  if (args.report) {
    process.stdout.write(render(JSON.parse(fs.readFileSync(args.report, 'utf8'))));
    return;
  }
  main().catch((e) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
  });
}

module.exports = { runOrReport };
