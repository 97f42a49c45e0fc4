// V8's code cache for the modules Jest compiles, kept for the life of a worker. Jest evaluates every
// test file's modules anew (a fresh module registry per file), compiling the same sources, ours and
// the dependencies', once per file, with no cache: a large share of a worker's CPU. Here the first
// compilation of a source makes its code cache and later ones of the very same source start from it
// (what the cache may hold is V8's to decide; a cache it refuses means a plain compilation).
// A source that can import() is left out: its compiled code would keep the dynamic-import hook of
// the file that compiled it first, a registry Jest has since thrown away.
import vm from 'node:vm';

/**
 * The entry of module `name` in `entries` (the source last seen under that name, and its code cache
 * once made) when `code` may use the cache; a new source under a known name replaces the entry.
 */
function cacheEntry(entries, name, code) {
  if (typeof name !== 'string') return undefined;
  let entry = entries.get(name);
  if (entry?.code !== code) {
    entry = { code, usable: !code.includes('import('), data: undefined };
    entries.set(name, entry);
  }
  return entry.usable ? entry : undefined;
}

/** Jest's CommonJS modules: vm.compileFunction. */
const compileFunction = vm.compileFunction;
const functions = new Map();
vm.compileFunction = function compileFunctionWithCache(code, params, options = {}) {
  const entry = options.cachedData === undefined && !options.produceCachedData ? cacheEntry(functions, options.filename, code) : undefined;
  if (!entry) return compileFunction(code, params, options);
  if (entry.data) {
    const compiled = compileFunction(code, params, { ...options, cachedData: entry.data });
    if (!compiled.cachedDataRejected) return compiled;
  }
  const compiled = compileFunction(code, params, { ...options, produceCachedData: true });
  if (compiled.cachedDataProduced) entry.data = compiled.cachedData;
  return compiled;
};

/** Jest's ES modules: vm.SourceTextModule (present with --experimental-vm-modules). */
const SourceTextModule = vm.SourceTextModule;
if (SourceTextModule) {
  const modules = new Map();
  vm.SourceTextModule = new Proxy(SourceTextModule, {
    construct(target, [code, options = {}], newTarget) {
      const entry = options.cachedData === undefined ? cacheEntry(modules, options.identifier, code) : undefined;
      if (!entry) return Reflect.construct(target, [code, options], newTarget);
      if (entry.data) {
        try {
          return Reflect.construct(target, [code, { ...options, cachedData: entry.data }], newTarget);
        } catch {
          // a refused cache: compiled afresh below
        }
      }
      const module = Reflect.construct(target, [code, options], newTarget);
      entry.data = module.createCachedData();
      return module;
    },
  });
}
