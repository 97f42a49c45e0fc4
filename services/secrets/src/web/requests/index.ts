/*
 * Secret requests: the signed-in account's requests (make one, copy its link, cancel it), and the
 * page behind a request link where anyone may send that account one secret, once.
 */
export { requestsRoutes } from './requests.routes.js';
export { answerRoutes } from './answer.routes.js';
