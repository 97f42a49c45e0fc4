export { createFailureLimits, type FailureLimits } from './failure-limits.js';
