export { type LoadedKey, signingKeyAgeGauge } from './keys.metrics.js';
export { KeysRepository } from './keys.repository.js';
export { SIGNING_ALGS, type SigningAlg, SigningKeys } from './keys.js';
export { addNextKey, ID_TOKEN_TTL, promoteNextKey, retireKeys, rotateKeysStep } from './rotation.js';
