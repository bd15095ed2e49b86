// Preloaded with `node -r` by test/e2e/cli-lazy-load.e2e.test.ts: at exit, writes the path of
// every CommonJS module the process loaded to the file named by CREDGATE_MODULE_TRACE, so a test
// can check what a command loads (a module count, never a wall-clock time).
'use strict';
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  const target = process.env.CREDGATE_MODULE_TRACE;
  if (target) writeFileSync(target, JSON.stringify(Object.keys(require.cache)));
});
