import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import wallClock from './eslint/wall-clock.js';

// Type-aware linting (typescript-eslint's recommendedTypeChecked): the rules that catch what
// tsc cannot, above all promises nobody awaits (no-floating-promises) and promises handed to
// callbacks that ignore them (no-misused-promises, e.g. an async Express handler in Node's
// `server.on('request')`). Plain JavaScript (scripts, benchmarks, config) is linted without types.
// Every TypeScript file is read through one program (tsconfig.lint.json: the workspace's packages
// by their sources, the browser and Jest globals everywhere) rather than one per tsconfig, which
// would parse the shared packages once for each of the ~30 projects that include them; the
// projects' own settings are enforced by `tsc -b`.
export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-test/**', '**/node_modules/**', 'coverage/**', 'test-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        Response: 'readonly',
        Request: 'readonly',
        URLSearchParams: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        structuredClone: 'readonly',
        performance: 'readonly',
        setImmediate: 'readonly',
      },
      parserOptions: { project: './tsconfig.lint.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // An async function with no await is how a Promise-returning contract (a readiness check,
      // start/close) turns a synchronous throw into a rejection; the rule would trade that
      // guarantee for style.
      '@typescript-eslint/require-await': 'off',
      'no-console': 'error',
    },
  },
  // V8 allocates a function literal assigned to a property (`obj.callback = (err) => ...`) straight
  // in the old generation, expecting a method installed once. Made per call, each such closure
  // keeps its context (and whatever request that context reaches) alive through every young
  // collection until the next full one, which measurably lengthened the request paths' tail
  // latency (docs/performance.md). Declare the function (`const done = ...`) and assign the name,
  // or use an object literal.
  {
    files: ['services/*/src/**/*.ts', 'packages/*/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "AssignmentExpression[left.type='MemberExpression'] > :matches(ArrowFunctionExpression, FunctionExpression).right",
          message:
            'V8 puts a function literal assigned to a property in the old generation; per call it keeps its whole context alive until a full GC. Declare it (const f = ...) and assign the name.',
        },
      ],
    },
  },
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], ...tseslint.configs.disableTypeChecked },
  // Tests read JSON responses (supertest's `body`, `res.json()`) as `any` on purpose: the
  // assertions are the type check there, and the OpenAPI test checks the shapes.
  {
    files: ['**/test/**/*.ts', '**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  { files: ['**/cli/**', 'bench/**', '**/scripts/**'], rules: { 'no-console': 'off' } },
  // A test asserts what the code does, not how long the machine took to do it (eslint/wall-clock.js).
  {
    files: ['**/test/**/*.ts', '**/*.test.ts', 'packages/testing/src/**/*.ts'],
    plugins: { hush: wallClock },
    rules: { 'hush/no-wall-clock-assertions': 'error' },
  },
);
