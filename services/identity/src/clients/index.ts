export { checksFor, clientAuthLimits, type ClientAuthLimits, clientAuthState, compareAndCheck, DECOY_HASH } from './client-auth-failures.js';
export { ClientCache, type ClientLookup } from './client-cache.js';
export { ClientSecretSeal } from './client-secret-seal.js';
export { hashClientSecret, newClientSecret } from './client-secret.js';
export { type Client, type ClientSort, CLIENT_SORTS, ClientsRepository } from './clients.repository.js';
export {
  type ClientsDeps,
  createClient,
  type CreateClientInput,
  deleteClient,
  DEVICE_CODE_GRANT,
  ensureWebClient,
  readClientSecret,
  rotateClientSecret,
  updateClient,
} from './clients.js';
export { invalidatingLocally } from './local-invalidation.js';
export { resolveWebOrigins } from './web-origins.js';
