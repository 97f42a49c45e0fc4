/*
 * Receipt and reveal: the recipient's page behind the secret link, the creator's receipt behind
 * the private link, and the receipt's presentation the share flow reuses for its result.
 */
export { revealRoutes } from './reveal.routes.js';
export { receiptRoutes } from './receipt.routes.js';
export { deliveryText, receiptSection, stateText } from './receipt.views.js';
