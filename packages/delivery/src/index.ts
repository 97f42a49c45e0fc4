/**
 * The producer's half of e-mail delivery, shared by the services that send mail through the
 * mailer: an outbox relay (relay.ts) over the service's own outbox table, and the dispatchers it
 * hands jobs to (BullMQ to the mailer, or straight to SMTP when the service runs without Redis).
 * Each service keeps its outbox table, its repository and how a row becomes a job.
 */
export * from './relay.js';
export { mailQueueDepth, type DepthRedis } from './queue-depth.js';
export * from './burst-log.js';
export type { Dispatcher, OnStatus, Outcome } from './dispatchers.js';
export * from './config.js';
