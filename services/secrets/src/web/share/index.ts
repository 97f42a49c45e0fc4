/* Share: the share page, its result (the receipt, or a generated password shown once). */
export { shareRoutes, type ShareOptions } from './share.routes.js';
