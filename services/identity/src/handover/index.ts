export { ensureHandoverClient } from './handover-client.js';
export { handOver, type HandoverReceipt, readReceipt } from './handover.js';
export { type Handover, HandoversRepository } from './handovers.repository.js';
export { SecretsApi } from './secrets-api.js';
