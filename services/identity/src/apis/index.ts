export { type Api, ApisRepository } from './apis.repository.js';
export { createApi, MAX_ACCESS_TOKEN_TTL } from './apis.js';
