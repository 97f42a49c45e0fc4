/**
 * oidc-provider builds two `Intl.ListFormat`s when it loads, for the lists in its error
 * messages; building one reads ICU's list data into memory (~6 MB resident for the two), whether
 * or not an error ever lists anything. `importDeferringListFormat` runs an import with
 * `Intl.ListFormat` standing in for a class that builds the real formatter at its first use, and
 * puts the real class back when the import is done: the formatters built during the import
 * answer as the real ones do, the rest of the process only ever sees the real class.
 */
export async function importDeferringListFormat<T>(load: () => Promise<T>): Promise<T> {
  const Real = Intl.ListFormat;
  setListFormat(deferring(Real));
  try {
    return await load();
  } finally {
    setListFormat(Real);
  }
}

/** Replaces `Intl.ListFormat`, keeping its property's attributes (writable, not enumerable). */
function setListFormat(value: typeof Intl.ListFormat): void {
  Object.defineProperty(Intl, 'ListFormat', { ...Object.getOwnPropertyDescriptor(Intl, 'ListFormat'), value });
}

function deferring(Real: typeof Intl.ListFormat): typeof Intl.ListFormat {
  class DeferredListFormat {
    readonly #args: ConstructorParameters<typeof Intl.ListFormat>;
    #real: Intl.ListFormat | undefined;

    constructor(...args: ConstructorParameters<typeof Intl.ListFormat>) {
      this.#args = args;
    }

    #formatter(): Intl.ListFormat {
      return (this.#real ??= new Real(...this.#args));
    }

    format(list: Iterable<string>): string {
      return this.#formatter().format(list);
    }

    formatToParts(list: Iterable<string>) {
      return this.#formatter().formatToParts(list);
    }

    resolvedOptions() {
      return this.#formatter().resolvedOptions();
    }
  }
  return Object.assign(DeferredListFormat, { supportedLocalesOf: Real.supportedLocalesOf.bind(Real) });
}
