/**
 * Identity's page kit: what every server-rendered page shares (the login and e-mailed-link pages,
 * both consoles). The layout itself is @hush/common's `layout`.
 */
export { csrfField } from './csrf-field.js';
export { consolePage, type ConsoleNavItem, type ConsolePageOptions } from './console-layout.js';
export { consolePageErrors, signInPageErrors } from './page-errors.js';
export { LOGIN_FORM_CHARACTERS, TOKEN_FORM_CHARACTERS } from './form-sizes.js';
export { refusedForLimit } from './limit-refusal.js';
