export { html, raw, Html, type Interpolation } from './html.js';
export * from './layout.js';
export * from './stylesheet.js';
export * from './security-headers.js';
export * from './error-page.js';
export * from './page-errors.js';
export * from './csrf.js';
export * from './form.js';
export * from './text-input.js';
