import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * A feature's routes whose modules load at the first request that may be theirs, so a process
 * that never serves the feature never holds its code. Use it in the feature's place in the app,
 * without a path (`app.use(lazyRoutes(...))`); `load` imports the feature and returns its router,
 * built on full paths as the feature mounts itself.
 *
 * - A request whose path is not one of `mounts` or below one (compared as Express matches a
 *   mount: case-insensitively, at a `/` boundary) passes on untouched, before and after the load.
 * - The first request under a mount loads the feature; requests meanwhile wait for the same load.
 * - Once loaded, requests under the mounts go to the feature's router: the routes, their
 *   middleware and their errors are the feature's, as if mounted directly.
 * - A failed load goes to the app's error handler (a 500) and the next request tries again.
 */
export function lazyRoutes(mounts: readonly string[], load: () => Promise<RequestHandler>): RequestHandler {
  const prefixes = mounts.map((mount) => mount.replace(/\/+$/, '').toLowerCase());
  let loaded: RequestHandler | undefined;
  let loading: Promise<RequestHandler> | undefined;
  const isUnder = (path: string) => {
    const lower = path.toLowerCase();
    return prefixes.some((prefix) => lower === prefix || lower.startsWith(`${prefix}/`));
  };
  return (req: Request, res: Response, next: NextFunction) => {
    if (!isUnder(req.path)) return next();
    if (loaded) return loaded(req, res, next);
    loading ??= load().then(
      (handler) => (loaded = handler),
      (err: unknown) => {
        loading = undefined;
        throw err;
      },
    );
    loading.then((handler) => handler(req, res, next), next);
  };
}
