export { accountConsole } from './account.routes.js';
export { accountTokenVerifier } from './account-token.js';
export { securityConsole, SECURITY_PATH, type SecurityConsoleDeps } from './security.routes.js';
