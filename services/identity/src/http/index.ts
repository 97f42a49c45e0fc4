export { errorHandler, notFound } from './error-handler.js';
export { createIdentityMetrics } from './metrics.js';
export { lazyRoutes } from './lazy-routes.js';
export { requestLog } from './request-log.js';
