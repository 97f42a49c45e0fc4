// Jest runs our TypeScript as native ESM: @swc/jest strips types (no type check here;
// `pnpm typecheck` does that) and Node's --experimental-vm-modules loads ESM-only
// dependencies such as oidc-provider. See docs/adr/0002-esm-under-jest.md.
const swc = ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2023' }, module: { type: 'es6' } }];

/** @type {import('jest').Config} */
export default {
  // Jest's, with the product's and the dependencies' modules evaluated once per worker and shared
  // by its files (packages/testing/jest/runtime.mjs), in one context per worker.
  runtime: '<rootDir>/packages/testing/jest/runtime.mjs',
  // Node's, with that one context (environment.mjs); with HUSH_TEST_CPU=<file>, the same, writing
  // each file's CPU time there (cpu-environment.mjs).
  testEnvironment: `<rootDir>/packages/testing/jest/${process.env.HUSH_TEST_CPU ? 'cpu-environment' : 'environment'}.mjs`,
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: {
    '^@hush/common/base$': '<rootDir>/packages/common/src/base.ts',
    '^@hush/common/web$': '<rootDir>/packages/common/src/web/index.ts',
    '^@hush/common/html$': '<rootDir>/packages/common/src/web/html.ts',
    '^@hush/common/i18n$': '<rootDir>/packages/common/src/i18n/index.ts',
    '^@hush/testing/chromium$': '<rootDir>/packages/testing/src/chromium.ts',
    '^@hush/([a-z-]+)$': '<rootDir>/packages/$1/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: ['<rootDir>/{services,packages,test}/**/test/**/*.test.ts', '<rootDir>/{services,packages}/*/src/**/*.test.ts', '<rootDir>/eslint/*.test.js'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  testTimeout: 30000,
  // Three workers on CI's two cores: most files spend much of their time waiting on PostgreSQL,
  // Redis, child processes and Chromium, so a third keeps the cores busy. A worker that holds more
  // than this once a file is done is replaced, so the modules of hundreds of files never pile up in
  // one process (Node's default heap limit is enough). The files known to be slow start first.
  maxWorkers: 3,
  workerIdleMemoryLimit: '1GB',
  testSequencer: '<rootDir>/packages/testing/jest/sequencer.mjs',
  // One template database per service and run, copied by each file instead of migrated (packages/testing/src/databases.ts).
  globalSetup: '<rootDir>/packages/testing/jest/global-setup.mjs',
  globalTeardown: '<rootDir>/packages/testing/jest/global-teardown.mjs',
  // One more run for a failed test, its first failure logged (retry.mjs).
  setupFilesAfterEnv: ['<rootDir>/packages/testing/jest/retry.mjs'],
};
