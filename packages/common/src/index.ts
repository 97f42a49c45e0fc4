export * from './base.js';
export * from './db.js';
export * from './infrastructure.js';
export * from './request-log.js';
export * from './cli.js';
export * from './web/index.js';
export * from './rate-limit.js';
export * from './basic-auth.js';
