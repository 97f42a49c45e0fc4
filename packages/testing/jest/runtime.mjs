// Jest's runtime, with the modules of the product (services/*/src, packages/*/src but the test
// kit's) and of its dependencies (node_modules) evaluated once per worker and shared by the test
// files it runs, instead of once per file: for most files, loading identity's or secrets' module
// graph cost more CPU than their tests. Test code (test files, harnesses, @hush/testing) is still
// evaluated afresh for each file. A shared module holds no state a test relies on being new: the
// product keeps its state in the objects a test builds (apps, pools, queues), not in its modules.
// They live in the worker's one context (environment.mjs).
import { createRequire } from 'node:module';

// jest-runtime is Jest's own dependency, reached from Jest's folder.
const fromJest = createRequire(createRequire(import.meta.url).resolve('jest'));
const Runtime = fromJest('jest-runtime').default;

const PRODUCT = /\/(services\/[a-z-]+|packages\/(?!testing\/)[a-z-]+)\/src\//;

/** Whether the module a registry key names (a path or a file URL) is shared by the worker's files. */
function isShared(key) {
  if (typeof key !== 'string') return false;
  if (key.includes('/node_modules/')) return true;
  return PRODUCT.test(key) && !/\.test\.[cm]?[jt]s$/.test(key);
}

/** A module registry whose shared entries live in `shared` (one per worker), the others in itself. */
class LayeredRegistry extends Map {
  constructor(shared) {
    super();
    this.shared = shared;
  }
  get(key) {
    return isShared(key) ? this.shared.get(key) : super.get(key);
  }
  has(key) {
    return isShared(key) ? this.shared.has(key) : super.has(key);
  }
  set(key, value) {
    if (isShared(key)) this.shared.set(key, value);
    else super.set(key, value);
    return this;
  }
  delete(key) {
    return isShared(key) ? this.shared.delete(key) : super.delete(key);
  }
}

const sharedCommonJs = new Map();
const sharedEsm = new Map();

export default class SharingRuntime extends Runtime {
  constructor(...args) {
    super(...args);
    this.registries.moduleRegistry = new LayeredRegistry(sharedCommonJs);
    this.registries.esModuleRegistry = new LayeredRegistry(sharedEsm);
  }

  // A shared module loads what it needs later (a lazy require, an import()) through the runtime
  // that evaluated it, whose file may have ended: that runtime must still load, so it is not left
  // marked as torn down (Jest refuses every load of a runtime so marked).
  teardown() {
    super.teardown();
    this.testState.state = 'loading';
  }
}
