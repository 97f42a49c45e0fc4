// Jest's node environment, with one context per worker: the first test file's context (its globals)
// serves every later file of that worker, so that the product's modules, which runtime.mjs evaluates
// once per worker, live in the same realm as each file's tests (their objects pass `instanceof`
// there, their errors are the file's `Error`s). What a file sets on the global stays for the next;
// Jest's own globals (`expect`, `describe`...) are set anew for each file.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';

// jest-environment-node is Jest's own dependency, reached from Jest's folder.
const fromJest = createRequire(createRequire(import.meta.url).resolve('jest'));
const { TestEnvironment } = fromJest('jest-environment-node');

/** What a file's environment takes from the worker's first one: its context and what Jest built on it. */
const SHARED_FIELDS = ['context', 'global', 'moduleMocker', 'fakeTimers', 'fakeTimersModern', 'customExportConditions', '_configuredExportConditions', '_globalProxy'];

// Jest loads its test adapter anew for each file, and the adapter makes an AsyncLocalStorage of its
// own. Node (before AsyncContextFrame) keeps every storage ever used in one list that each new
// promise walks, so over a worker's files every promise paid for every earlier file's storage. The
// storages used while a file ran are disabled when it ends; one used again enables itself again.
const usedStorages = new Set();
for (const method of ['run', 'enterWith']) {
  const original = AsyncLocalStorage.prototype[method];
  AsyncLocalStorage.prototype[method] = function (...args) {
    usedStorages.add(this);
    return original.apply(this, args);
  };
}

/** The shared fields of the worker's first environment, once built. */
let first;

export default class HushEnvironment extends TestEnvironment {
  constructor(config, context) {
    if (first) {
      // A derived constructor may return an object of its own instead of building one: here a new
      // environment on the first one's context, without the new context Jest's constructor makes.
      const reused = Object.create(new.target.prototype);
      Object.assign(reused, first);
      return reused;
    }
    super(config, context);
    first = Object.fromEntries(SHARED_FIELDS.map((field) => [field, this[field]]));
  }

  // Jest's own teardown empties the context, which the worker's next file uses: left out.
  async teardown() {
    for (const storage of usedStorages) storage.disable();
    usedStorages.clear();
  }
}
