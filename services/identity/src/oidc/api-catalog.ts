import type { Api, ApisRepository } from '../apis/index.js';

/**
 * The APIs the provider knows (api-resources.ts). The token endpoint asks "which API owns scope X?" on every request; APIs change rarely, so a
 * process keeps them in memory for a few seconds and reloads at once on a miss (a new API is
 * usable immediately after the admin creates it).
 */
export class ApiCatalog {
  private byIdentifier = new Map<string, Api>();
  private byScope = new Map<string, Api>();
  private loadedAt = 0;
  private loading: Promise<void> | undefined;

  constructor(
    private readonly repository: ApisRepository,
    private readonly maxAgeMs = 5000,
  ) {}

  async byScopeName(scope: string): Promise<Api | undefined> {
    await this.fresh();
    return this.byScope.get(scope) ?? (await this.reloadThen(() => this.byScope.get(scope)));
  }

  async byId(identifier: string): Promise<Api | undefined> {
    await this.fresh();
    return this.byIdentifier.get(identifier) ?? (await this.reloadThen(() => this.byIdentifier.get(identifier)));
  }

  private async fresh(): Promise<void> {
    if (Date.now() - this.loadedAt > this.maxAgeMs) await this.reload();
  }

  /** Reload on a miss; concurrent misses share one query. */
  private async reloadThen<T>(lookup: () => T): Promise<T> {
    await this.reload();
    return lookup();
  }

  private reload(): Promise<void> {
    this.loading ??= (async () => {
      try {
        const apis = await this.repository.list();
        this.byIdentifier = new Map(apis.map((a) => [a.identifier, a]));
        this.byScope = new Map(apis.flatMap((a) => a.scopes.map((s) => [s, a] as const)));
        this.loadedAt = Date.now();
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }
}
