/**
 * One class per failure. Each carries its HTTP status and a stable `code`; the single error
 * middleware (http/error-handler.ts) turns them into `{ "message", "code" }`. The message is
 * shown to the caller, so it never contains a secret, key, passphrase, token or e-mail address.
 */
export abstract class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra response headers (WWW-Authenticate, Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The base class of a failure that always answers the same: `new UnknownSecretError()`. */
function fixed(status: number, code: string, message: string, headers: Record<string, string> = {}) {
  return class extends ApiError {
    constructor() {
      super(status, code, message, headers);
    }
  };
}

/** The base class of a failure whose message the thrower words: `new MalformedBodyError('...')`. */
function worded(status: number, code: string) {
  return class extends ApiError {
    constructor(message: string) {
      super(status, code, message);
    }
  };
}

const CHALLENGE = { 'WWW-Authenticate': 'Basic realm="hush", Bearer realm="hush"' };

// 400
export class InvalidParameterError extends worded(400, 'invalid_parameter') {}
export class MalformedBodyError extends worded(400, 'malformed_body') {}
export class SecretRequiredError extends fixed(400, 'secret_required', 'You did not provide anything to share') {}
export class InvalidTtlError extends ApiError {
  constructor(min: number, max: number) {
    super(400, 'invalid_ttl', `ttl must be a whole number of seconds from ${min} to ${max}`);
  }
}
export class InvalidRecipientError extends ApiError {
  constructor(detail = 'recipient must be one valid e-mail address') {
    super(400, 'invalid_recipient', detail);
  }
}
export class InvalidLengthError extends ApiError {
  constructor(min: number, max: number) {
    super(400, 'invalid_length', `length must be a whole number from ${min} to ${max}`);
  }
}

// 401
export class CredentialsRequiredError extends fixed(401, 'credentials_required', 'Not authorized: send HTTP Basic username:api_token or a Bearer access token', CHALLENGE) {}
export class InvalidCredentialsError extends fixed(401, 'invalid_credentials', 'Not authorized', CHALLENGE) {}
export class InvalidTokenError extends fixed(401, 'invalid_token', 'Not authorized: the access token is invalid or expired', {
  'WWW-Authenticate': 'Bearer realm="hush", error="invalid_token"',
}) {}
/** Passphrase errors are 401 with their own codes (the key is a 160-bit capability: saying so leaks nothing). */
export class PassphraseRequiredError extends fixed(401, 'passphrase_required', 'This secret requires a passphrase') {}
export class PassphraseIncorrectError extends ApiError {
  constructor(readonly attemptsLeft: number) {
    super(
      401,
      'passphrase_incorrect',
      attemptsLeft > 0
        ? `Incorrect passphrase (${attemptsLeft} attempt${attemptsLeft === 1 ? '' : 's'} left before the secret is destroyed)`
        : 'Incorrect passphrase: too many failed attempts, the secret has been destroyed',
    );
  }
}

// 403
export class InsufficientScopeError extends ApiError {
  constructor(scope: string) {
    super(403, 'insufficient_scope', `Forbidden: this operation needs the scope ${scope}`, {
      'WWW-Authenticate': `Bearer realm="hush", error="insufficient_scope", scope="${scope}"`,
    });
  }
}
export class UserTokenRequiredError extends fixed(403, 'user_token_required', "Forbidden: API tokens are minted with a user's Bearer access token (authorization code flow)") {}

// 404: unknown, already read, burned and expired are deliberately indistinguishable.
export class UnknownSecretError extends fixed(404, 'unknown_secret', 'Unknown secret') {}
export class UnknownTokenError extends fixed(404, 'unknown_token', 'Unknown API token') {}
export class RouteNotFoundError extends fixed(404, 'not_found', 'Not Found') {}

// 413
export class SecretTooLongError extends ApiError {
  constructor(length: number, limit: number, plan: string) {
    super(413, 'secret_too_long', `Secret is ${length} characters; the ${plan} plan allows at most ${limit} characters`);
  }
}
export class PayloadTooLargeError extends ApiError {
  constructor(limit: string) {
    super(413, 'payload_too_large', `Request body exceeds ${limit}`);
  }
}

// 415
export class UnsupportedMediaTypeError extends worded(415, 'unsupported_media_type') {}

// 429
export class RateLimitedError extends ApiError {
  constructor(retryAfter: number) {
    super(429, 'rate_limited', `Rate limit exceeded; retry in ${retryAfter} seconds`, { 'Retry-After': String(retryAfter) });
  }
}

// 503
export class IdentityUnavailableError extends fixed(503, 'identity_unavailable', 'Cannot verify access tokens right now (the identity service is unreachable); retry shortly', {
  'Retry-After': '5',
}) {}

/** Admin (CLI) failures that are not HTTP-shaped. */
export class AdminError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
