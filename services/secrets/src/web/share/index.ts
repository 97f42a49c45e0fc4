/* Share: the share page, its result (the receipt, or a generated password shown once); its lifetime choices (the requests form offers them too). */
export { shareRoutes } from './share.routes.js';
export type { ShareOptions } from './share-access.js';
export { ttlChoices } from './ttl-choices.js';
export type { TtlOption } from './ttl-choices.js';
export { COUNTER_SCRIPT, ttlSelect } from './share.views.js';
