#!/usr/bin/env node
// `prisma generate` needs no schema engine, but Prisma 7's CLI tries to download one at start
// unless PRISMA_SCHEMA_ENGINE_BINARY names an executable. Any executable will do for generate;
// node itself is always there. Offline installs therefore generate the client without network.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const env = { ...process.env };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
const cli = path.join(__dirname, '..', 'node_modules', 'prisma', 'build', 'index.js');
const res = spawnSync(process.execPath, [cli, 'generate'], { stdio: ['ignore', 'pipe', 'inherit'], env });
if (res.status !== 0) {
  process.stdout.write(res.stdout ?? '');
  process.exit(res.status ?? 1);
}
