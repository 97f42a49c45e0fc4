/* API tokens: the signed-in account's tokens for HTTP Basic, minted and revoked. */
export { apiTokenRoutes, type TokenAccounts } from './api-tokens.routes.js';
