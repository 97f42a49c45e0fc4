export * from './classify.js';
export * from './escape.js';
export * from './notification.js';
export * from './recipient-code.js';
export * from './secret-link.js';
export * from './secret-request.js';
export * from './send.js';
export * from './transport.js';
