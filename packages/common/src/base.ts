// The parts of @hush/common every process needs and that load no database or web library:
// `@hush/common/base`. A service that needs no more (the mailer) imports this and
// `@hush/common/web`, not the whole package, whose index also loads knex, pg,
// rate-limiter-flexible and passport-http (~15 MB of a process's resident memory).
export * from './config/config.js';
export * from './config/config-keys.js';
export * from './logging/logger.js';
export * from './crypto/crypto.js';
export * from './crypto/crypto-ring.js';
export * from './health/metrics.js';
export * from './health/management.js';
export * from './process/shutdown.js';
export * from './process/entrypoint.js';
export * from './db/batch.js';
export * from './limits/circuit-breaker.js';
export * from './http/errors.js';
export * from './health/health.js';
export * from './input/ids.js';
export * from './redis/redis.js';
export * from './redis/redis-durability.js';
export * from './logging/outage.js';
export * from './process/idle-compaction.js';
export * from './limits/timeout.js';
export * from './http/trust-proxy.js';
