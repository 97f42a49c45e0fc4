/* My secrets: the signed-in account's secrets and their burn buttons. */
export { mySecretsRoutes } from './my-secrets.routes.js';
