// V8's code cache for the modules Jest compiles, kept for the life of a worker. Jest evaluates every
// test file's modules anew (a fresh module registry per file), compiling the same sources, ours and
// the dependencies', once per file, with no cache: about a fifth of a worker's CPU. Here the first
// compilation of a source makes its code cache and later ones of the very same source start from it
// (what the cache may hold is V8's to decide; a cache it refuses means a plain compilation).
// A source that can import() is left out: its compiled code would keep the dynamic-import hook of
// the file that compiled it first, a registry Jest has since thrown away.
import vm from 'node:vm';

/** Whether `code`, the source of module `name`, may be compiled from, and stored in, the cache (known sources are not searched again). */
const searched = new Map();
function cacheable(name, code) {
  if (typeof name !== 'string') return false;
  const known = searched.get(name);
  if (known?.code === code) return known.cacheable;
  const answer = !code.includes('import(');
  searched.set(name, { code, cacheable: answer });
  return answer;
}

/** Jest's CommonJS modules: vm.compileFunction. */
const compileFunction = vm.compileFunction;
const functions = new Map();
vm.compileFunction = function compileFunctionWithCache(code, params, options = {}) {
  const name = options.filename;
  if (!cacheable(name, code) || options.cachedData !== undefined || options.produceCachedData) return compileFunction(code, params, options);
  const known = functions.get(name);
  if (known?.code === code) {
    const compiled = compileFunction(code, params, { ...options, cachedData: known.data });
    if (!compiled.cachedDataRejected) return compiled;
  }
  const compiled = compileFunction(code, params, { ...options, produceCachedData: true });
  if (compiled.cachedDataProduced) functions.set(name, { code, data: compiled.cachedData });
  return compiled;
};

/** Jest's ES modules: vm.SourceTextModule (present with --experimental-vm-modules). */
const SourceTextModule = vm.SourceTextModule;
if (SourceTextModule) {
  const modules = new Map();
  vm.SourceTextModule = new Proxy(SourceTextModule, {
    construct(target, [code, options = {}], newTarget) {
      const name = options.identifier;
      if (!cacheable(name, code) || options.cachedData !== undefined) return Reflect.construct(target, [code, options], newTarget);
      const known = modules.get(name);
      if (known?.code === code) {
        try {
          return Reflect.construct(target, [code, { ...options, cachedData: known.data }], newTarget);
        } catch {
          // a refused cache: compiled afresh below
        }
      }
      const module = Reflect.construct(target, [code, options], newTarget);
      modules.set(name, { code, data: module.createCachedData() });
      return module;
    },
  });
}
