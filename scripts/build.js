#!/usr/bin/env node
// Builds only what changed, quietly: `npm start`, `npm run cli` and `npm test` call it on every
// run, so an up-to-date tree must cost milliseconds, not the 15-25 s of a full tsc + prisma run.
//
// Two steps, each skipped when a content fingerprint of its inputs matches the one stored with
// its output (content, not mtimes: a fresh clone or a `git checkout` changes every mtime):
//   1. the Prisma client (src/generated/prisma) from prisma/schema.prisma;
//   2. tsc (incremental) into dist/, then schema.graphql from the compiled resolvers;
//   3. the SDK package (packages/sdk/dist) from src/sdk.
// Tool output is captured and shown only when a step fails; one progress line per step goes to
// stderr. `--force` rebuilds both; `--if-present` (used at install time) exits quietly when the
// dev tools are not installed, e.g. after `npm ci --omit=dev`.
'use strict';
const { spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const args = new Set(process.argv.slice(2));
const force = args.has('--force');

function hashTree(hash, target) {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return;
  if (!stat.isDirectory()) {
    hash.update(path.relative(root, target)).update('\0').update(fs.readFileSync(target)).update('\0');
    return;
  }
  for (const name of fs.readdirSync(target).sort()) {
    if (name.startsWith('.credgate-')) continue;
    hashTree(hash, path.join(target, name));
  }
}

function fingerprint(inputs) {
  const hash = createHash('sha256');
  for (const input of inputs) hashTree(hash, path.join(root, input));
  return hash.digest('hex');
}

function readStamp(file) {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

function run(label, command, commandArgs, env = process.env) {
  const started = Date.now();
  process.stderr.write(`credgate: ${label}…`);
  const res = spawnSync(command, commandArgs, { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (res.status !== 0) {
    process.stderr.write(' failed\n');
    process.stderr.write(res.stdout ?? '');
    process.stderr.write(res.stderr ?? '');
    process.exit(res.status ?? 1);
  }
  process.stderr.write(` done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

const tscPath = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const prismaCli = path.join(root, 'node_modules', 'prisma', 'build', 'index.js');
if (args.has('--if-present') && !(fs.existsSync(tscPath) && fs.existsSync(prismaCli))) process.exit(0);

// 1. Prisma client. `prisma generate` needs no schema engine, but Prisma 7's CLI tries to
// download one at start unless PRISMA_SCHEMA_ENGINE_BINARY names an executable; node will do.
const clientDir = path.join(root, 'src', 'generated', 'prisma');
const clientStamp = path.join(clientDir, '.credgate-stamp');
const clientPrint = fingerprint(['prisma/schema.prisma', 'prisma.config.ts', 'node_modules/@prisma/client/package.json']);
if (force || readStamp(clientStamp) !== clientPrint || !fs.existsSync(path.join(clientDir, 'client.ts'))) {
  const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1' };
  if (!env.PRISMA_SCHEMA_ENGINE_BINARY) env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
  run('generating the Prisma client', process.execPath, [prismaCli, 'generate'], env);
  fs.writeFileSync(clientStamp, `${clientPrint}\n`);
}

// 1b. The anchoring contract's ABI + bytecode (src/anchor/evm/artifact.ts), compiled with solc only
// when the contract or the compiler changed: the artifact carries the fingerprint of its inputs, so
// a fresh clone with the committed artifact compiles nothing, and an install without solc keeps it.
const contractPrint = fingerprint(['contracts', 'node_modules/solc/package.json']);
const artifactPath = path.join(root, 'src', 'anchor', 'evm', 'artifact.ts');
const artifactText = fs.existsSync(artifactPath) ? fs.readFileSync(artifactPath, 'utf8') : '';
if (fs.existsSync(path.join(root, 'node_modules', 'solc', 'package.json')) && (force || !artifactText.includes(`inputs ${contractPrint}`))) {
  run('compiling the anchoring contract', process.execPath, [path.join(root, 'scripts', 'compile-contract.js'), '--fingerprint', contractPrint]);
}

// 2. TypeScript, then the GraphQL schema (emitted from the compiled resolvers). At install time
// in a Docker layer that holds only package.json, scripts and prisma, there is nothing to compile.
if (args.has('--if-present') && !fs.existsSync(path.join(root, 'src', 'main.ts'))) process.exit(0);
const distStamp = path.join(root, 'dist', '.credgate-stamp');
const distPrint = fingerprint(['src', 'tsconfig.json', 'node_modules/typescript/package.json']);
if (force || readStamp(distStamp) !== distPrint || !fs.existsSync(path.join(root, 'dist', 'main.js'))) {
  run('compiling TypeScript', process.execPath, [tscPath, '-p', 'tsconfig.json', '--incremental', '--tsBuildInfoFile', 'dist/.tsbuildinfo']);
  run('writing schema.graphql', process.execPath, [path.join(root, 'dist', 'graphql', 'emit-schema.js')]);
  fs.writeFileSync(distStamp, `${distPrint}\n`);
}

// 3. The installable SDK package (packages/sdk): the same sources, compiled to CommonJS.
const sdkStamp = path.join(root, 'packages', 'sdk', 'dist', '.credgate-stamp');
const sdkPrint = fingerprint(['src/sdk', 'packages/sdk/tsconfig.json', 'tsconfig.json']);
if (force || readStamp(sdkStamp) !== sdkPrint) {
  run('compiling the SDK package', process.execPath, [tscPath, '-p', path.join('packages', 'sdk', 'tsconfig.json')]);
  fs.writeFileSync(sdkStamp, `${sdkPrint}\n`);
}
