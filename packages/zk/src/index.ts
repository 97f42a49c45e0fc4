export * from './format.js';
export * from './client.js';
export { browserScript } from './script.js';
