'use strict';
/** Shared by the benchmarks: the repository root and `--name=value` flags (a bare `--flag` is 'true'). */
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(a);
    return m ? [m[1], m[2] ?? 'true'] : [a, 'true'];
  }),
);

module.exports = { ROOT, args };
