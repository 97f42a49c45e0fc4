import { fixedError, wordedError } from '@hush/common';

/**
 * Identity's failures: common's `DomainError` family (packages/common/src/http/errors.ts), plus the
 * few of its own. The admin CLI prints them (`cliExitCode`), the JSON routes answer them as
 * RFC 6749 `{ error, error_description }` (http/error-handler.ts), the login pages as an error
 * page. OAuth failures are oidc-provider's own error classes (RFC 6749 §5.2) and never pass here.
 */
export { AlreadyExistsError, DomainError, InvalidInputError, NotFoundError } from '@hush/common';

/** The interaction cookie belongs to another sign-in than the page's URL names. */
export class InteractionMismatchError extends fixedError(400, 'invalid_request', 'interaction mismatch') {}

/** An Express route no one serves (oidc-provider answers its own unknown paths). */
export class EndpointNotFoundError extends fixedError(404, 'not_found', 'no such endpoint') {}

/**
 * A client secret that cannot be read back: read-back is off (CLIENT_SECRET_READBACK), or the
 * secret was set before it was on, or by the CLI without it. Rotating gives a readable one.
 */
export class ClientSecretUnreadableError extends fixedError(
  404,
  'secret_not_readable',
  'the client secret cannot be read back (CLIENT_SECRET_READBACK is off, or it was set without it: rotate it)',
) {}

/** An admin API call without a valid access token of this realm for the admin API. */
export class AdminUnauthorizedError extends fixedError(401, 'unauthorized', 'HTTP 401 Unauthorized', { 'WWW-Authenticate': 'Bearer realm="public"' }) {}

/** A valid admin token without the realm-management role the call needs (or outside its organization). */
export class AdminForbiddenError extends fixedError(403, 'forbidden', 'HTTP 403 Forbidden') {}

/** Organization membership that cannot change this way (a user belongs to one organization at a time). */
export class MembershipConflictError extends wordedError(409, 'conflict') {}

/** One IP already has LOGIN_CONCURRENCY_PER_IP sign-ins in progress on this instance (login/login-gate.ts). */
export class SignInsInProgressError extends fixedError(429, 'temporarily_unavailable', 'too many sign-ins from your address at once; retry in a moment', {
  'Retry-After': '1',
}) {}
