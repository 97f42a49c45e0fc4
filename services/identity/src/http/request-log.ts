/*
 * One log line and a request id per request (see @hush/common). Identity's paths carry nothing
 * secret; query strings, which can carry codes and tokens, are never logged.
 */
export { requestLog } from '@hush/common';
