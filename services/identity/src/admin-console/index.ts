/*
 * The admin console is mounted by app.ts (mount.ts); what other folders may take from it is its
 * words: the page kit merges them into identity's page catalogue (pages/messages/index.ts).
 */
export { adminDe } from './messages/de.js';
export { adminEn } from './messages/en.js';
