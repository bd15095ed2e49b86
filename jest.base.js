/**
 * The transform and module set-up every jest configuration shares: the projects of
 * jest.config.js (`npm test`) and jest.browser.config.js (`npm run test:browser`).
 * Jest runs TypeScript through swc with decorator metadata on (type-graphql reads it).
 * ESM-only dependencies (@noble/*, @scure/*, jose) are transformed to CommonJS for jest's
 * module registry; at run time Node >= 20.19 requires them natively.
 */
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj)s$': ['@swc/jest', swc] },
  transformIgnorePatterns: ['/node_modules/(?!(@noble|@scure|jose|@openid4vc|dcql|@owf|@sd-jwt)/)'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  // Generated Prisma client (and ESM deps) import './x.js' specifiers that name .ts sources.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  setupFiles: ['reflect-metadata'],
  testTimeout: 60000,
};
