export { accessTokenLiveness } from './access-token-liveness.js';
export { withGrantClaim } from './grant-claim.js';
export { Revocations } from './revocations.js';
