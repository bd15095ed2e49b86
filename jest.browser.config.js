/**
 * Browser tests (headless Chromium driven by playwright-core): `npm run test:browser`.
 * Same transform and module set-up as the main suites (jest.base.js); jest.config.js ignores test/browser/.
 */
const base = require('./jest.base.js');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  roots: ['<rootDir>/test/browser'],
  testMatch: ['**/*.browser.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  // A page load plus a few clicks on a 2-core machine shared with other work.
  testTimeout: 120000,
  // Two files at once (each starts its own browser and server): the Swagger UI shards use both cores.
  maxWorkers: 2,
};
