// The parts of @hush/common every process needs and that load no database or web library:
// `@hush/common/base`. A service that needs no more (the mailer) imports this and
// `@hush/common/web`, not the whole package, whose index also loads knex, pg,
// rate-limiter-flexible and passport-http (~15 MB of a process's resident memory).
export * from './config.js';
export * from './config-keys.js';
export * from './logger.js';
export * from './crypto.js';
export * from './crypto-ring.js';
export * from './metrics.js';
export * from './management.js';
export * from './shutdown.js';
export * from './entrypoint.js';
export * from './batch.js';
export * from './circuit-breaker.js';
export * from './errors.js';
export * from './health.js';
export * from './ids.js';
export * from './redis.js';
export * from './redis-durability.js';
export * from './outage.js';
export * from './idle-compaction.js';
export * from './timeout.js';
export * from './trust-proxy.js';
