/**
 * `npm test`: three projects, run together by one jest, each test file in a worker of its own
 * (files run in parallel, never the tests within a file):
 *   unit     test/unit: pure code with fakes, no database and no build (`npm run test:unit`);
 *   heavy    the interop suites (reference libraries in child processes) and the fault suites
 *            (compiled service killed, cut off, run twice): the longest files, started first
 *            (scripts/jest-sequencer.js);
 *   service  every other suite under test/: integration, e2e, property, and any new folder.
 * Each database-backed file gets its own database, copied from a migrated template
 * (test/support/test-db.ts), so files share nothing but the PostgreSQL server.
 * Browser tests need Chromium and run on their own: `npm run test:browser` (jest.browser.config.js).
 * The transform and module set-up are in jest.base.js.
 */
const os = require('node:os');
const base = require('./jest.base.js');

/** The heavy project's files, as testMatch globs and as the service project's ignore patterns. */
const HEAVY_MATCH = ['<rootDir>/test/interop/**/*.test.ts', '<rootDir>/test/e2e/faults-*.test.ts'];
const HEAVY_IGNORE = ['<rootDir>/test/interop/', '<rootDir>/test/e2e/faults-'];

/**
 * Most suites spend their time waiting (on PostgreSQL, child processes, timers), so one worker
 * per core leaves cores idle: one more than the cores, capped so that concurrent files (each
 * with up to a few connection pools of 10) stay well inside PostgreSQL's default 100 connections.
 */
const WORKERS = Math.min(4, os.availableParallelism() + 1);

const project = (displayName, options) => ({ ...base, displayName, testMatch: ['**/*.test.ts'], ...options });

/** @type {import('jest').Config} */
module.exports = {
  maxWorkers: WORKERS,
  // A global option: jest reads it from here, not from the projects (jest.base.js sets it for single configs).
  testTimeout: base.testTimeout,
  testSequencer: '<rootDir>/scripts/jest-sequencer.js',
  projects: [
    project('unit', { roots: ['<rootDir>/test/unit'] }),
    project('heavy', { roots: ['<rootDir>/test'], testMatch: HEAVY_MATCH }),
    project('service', { roots: ['<rootDir>/test'], testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/browser/', '<rootDir>/test/unit/', ...HEAVY_IGNORE] }),
  ],
};
