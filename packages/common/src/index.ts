export * from './config.js';
export * from './logger.js';
export * from './crypto.js';
export * from './metrics.js';
export * from './shutdown.js';
export * from './batch.js';
