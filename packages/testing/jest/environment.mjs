// Jest's node environment, with V8's code cache for the modules Jest compiles (code-cache.mjs) and
// one clean-up after each test file: the AsyncLocalStorage instances the file's modules started
// using are disabled when it ends. Jest evaluates every file's modules anew, so each file that
// serves a request through oidc-provider enables a store of its own, and Node keeps every enabled
// store in one list that each new promise of the process walks: without this, a worker that has
// run a hundred such files pays a hundred stores per promise until it exits.
import { AsyncLocalStorage } from 'node:async_hooks';
import './code-cache.mjs';
import { createRequire } from 'node:module';

// jest-environment-node is Jest's own dependency, reached from Jest's folder.
const fromJest = createRequire(createRequire(import.meta.url).resolve('jest'));
const { TestEnvironment } = fromJest('jest-environment-node');

/** The stores enabled since the current file began (one file at a time runs in a worker). */
const enabledByFile = new Set();

// Node 22 enables a store through this method; a Node whose stores are not kept in such a list
// (AsyncContextFrame, the default from Node 24) has no such method, and nothing is needed there.
const enable = AsyncLocalStorage.prototype._enable;
if (typeof enable === 'function') {
  AsyncLocalStorage.prototype._enable = function recordedEnable() {
    if (!this.enabled) enabledByFile.add(this);
    return enable.call(this);
  };
}

export default class HushEnvironment extends TestEnvironment {
  async setup() {
    enabledByFile.clear();
    await super.setup();
  }

  async teardown() {
    await super.teardown();
    for (const store of enabledByFile) store.disable();
    enabledByFile.clear();
  }
}
