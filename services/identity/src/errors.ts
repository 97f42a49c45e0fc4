import { fixedError } from '@hush/common';

/**
 * Identity's failures: common's `DomainError` family (packages/common/src/errors.ts), plus the
 * few of its own. The admin CLI prints them (`cliExitCode`), the JSON routes answer them as
 * RFC 6749 `{ error, error_description }` (http/error-handler.ts), the login pages as an error
 * page. OAuth failures are oidc-provider's own error classes (RFC 6749 §5.2) and never pass here.
 */
export { AlreadyExistsError, DomainError, InvalidInputError, NotFoundError } from '@hush/common';

/** The interaction cookie belongs to another sign-in than the page's URL names. */
export class InteractionMismatchError extends fixedError(400, 'invalid_request', 'interaction mismatch') {}

/** An Express route no one serves (oidc-provider answers its own unknown paths). */
export class EndpointNotFoundError extends fixedError(404, 'not_found', 'no such endpoint') {}
