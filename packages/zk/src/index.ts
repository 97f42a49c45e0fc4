export * from './format.ts';
export * from './client.ts';
export { browserScript } from './script.ts';
