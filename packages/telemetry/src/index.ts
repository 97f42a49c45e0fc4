export * from './tracing.js';
export { tracingRequested } from './switch.js';
