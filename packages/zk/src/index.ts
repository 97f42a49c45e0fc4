export * from './format.js';
export * from './client.js';
