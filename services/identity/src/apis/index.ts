export { ApiCatalog } from './api-catalog.js';
export { ApisRepository } from './apis.repository.js';
export { createApi, MAX_ACCESS_TOKEN_TTL } from './apis.js';
