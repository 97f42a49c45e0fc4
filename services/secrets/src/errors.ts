/**
 * One class per failure. Each carries its HTTP status and a stable `code`; the single error
 * middleware (http/error-handler.ts) turns them into `{ "message", "code" }`. The message is
 * shown to the caller, so it never contains a secret, key, passphrase, token or e-mail address.
 */
export abstract class ApiError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  /** Extra response headers (WWW-Authenticate, Retry-After). */
  headers: Record<string, string> = {};
}

// 400
export class InvalidParameterError extends ApiError {
  readonly status = 400;
  readonly code = 'invalid_parameter';
}
export class SecretRequiredError extends ApiError {
  readonly status = 400;
  readonly code = 'secret_required';
  constructor() {
    super('You did not provide anything to share');
  }
}
export class InvalidTtlError extends ApiError {
  readonly status = 400;
  readonly code = 'invalid_ttl';
  constructor(min: number, max: number) {
    super(`ttl must be a whole number of seconds from ${min} to ${max}`);
  }
}
export class InvalidRecipientError extends ApiError {
  readonly status = 400;
  readonly code = 'invalid_recipient';
  constructor(detail = 'recipient must be one valid e-mail address') {
    super(detail);
  }
}
export class InvalidLengthError extends ApiError {
  readonly status = 400;
  readonly code = 'invalid_length';
  constructor(min: number, max: number) {
    super(`length must be a whole number from ${min} to ${max}`);
  }
}
export class MalformedBodyError extends ApiError {
  readonly status = 400;
  readonly code = 'malformed_body';
}

// 401
const CHALLENGE = { 'WWW-Authenticate': 'Basic realm="hush", Bearer realm="hush"' };
export class CredentialsRequiredError extends ApiError {
  readonly status = 401;
  readonly code = 'credentials_required';
  override headers = CHALLENGE;
  constructor() {
    super('Not authorized: send HTTP Basic username:api_token or a Bearer access token');
  }
}
export class InvalidCredentialsError extends ApiError {
  readonly status = 401;
  readonly code = 'invalid_credentials';
  override headers = CHALLENGE;
  constructor() {
    super('Not authorized');
  }
}
export class InvalidTokenError extends ApiError {
  readonly status = 401;
  readonly code = 'invalid_token';
  override headers = { 'WWW-Authenticate': 'Bearer realm="hush", error="invalid_token"' };
  constructor() {
    super('Not authorized: the access token is invalid or expired');
  }
}
/** Passphrase errors are 401 with their own codes (the key is a 160-bit capability: saying so leaks nothing). */
export class PassphraseRequiredError extends ApiError {
  readonly status = 401;
  readonly code = 'passphrase_required';
  constructor() {
    super('This secret requires a passphrase');
  }
}
export class PassphraseIncorrectError extends ApiError {
  readonly status = 401;
  readonly code = 'passphrase_incorrect';
  constructor(readonly attemptsLeft: number) {
    super(
      attemptsLeft > 0
        ? `Incorrect passphrase (${attemptsLeft} attempt${attemptsLeft === 1 ? '' : 's'} left before the secret is destroyed)`
        : 'Incorrect passphrase: too many failed attempts, the secret has been destroyed',
    );
  }
}

// 403
export class InsufficientScopeError extends ApiError {
  readonly status = 403;
  readonly code = 'insufficient_scope';
  constructor(scope: string) {
    super(`Forbidden: this operation needs the scope ${scope}`);
    this.headers = { 'WWW-Authenticate': `Bearer realm="hush", error="insufficient_scope", scope="${scope}"` };
  }
}
export class UserTokenRequiredError extends ApiError {
  readonly status = 403;
  readonly code = 'user_token_required';
  constructor() {
    super("Forbidden: API tokens are minted with a user's Bearer access token (authorization code flow)");
  }
}

// 404: unknown, already read, burned and expired are deliberately indistinguishable.
export class UnknownSecretError extends ApiError {
  readonly status = 404;
  readonly code = 'unknown_secret';
  constructor() {
    super('Unknown secret');
  }
}
export class UnknownTokenError extends ApiError {
  readonly status = 404;
  readonly code = 'unknown_token';
  constructor() {
    super('Unknown API token');
  }
}
export class RouteNotFoundError extends ApiError {
  readonly status = 404;
  readonly code = 'not_found';
  constructor() {
    super('Not Found');
  }
}

// 413
export class SecretTooLongError extends ApiError {
  readonly status = 413;
  readonly code = 'secret_too_long';
  constructor(length: number, limit: number, plan: string) {
    super(`Secret is ${length} characters; the ${plan} plan allows at most ${limit} characters`);
  }
}
export class PayloadTooLargeError extends ApiError {
  readonly status = 413;
  readonly code = 'payload_too_large';
  constructor(limit: string) {
    super(`Request body exceeds ${limit}`);
  }
}

// 415
export class UnsupportedMediaTypeError extends ApiError {
  readonly status = 415;
  readonly code = 'unsupported_media_type';
}

// 429
export class RateLimitedError extends ApiError {
  readonly status = 429;
  readonly code = 'rate_limited';
  constructor(retryAfter: number) {
    super(`Rate limit exceeded; retry in ${retryAfter} seconds`);
    this.headers = { 'Retry-After': String(retryAfter) };
  }
}

/** Admin (CLI) failures that are not HTTP-shaped. */
export class AdminError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

// 503
export class IdentityUnavailableError extends ApiError {
  readonly status = 503;
  readonly code = 'identity_unavailable';
  constructor() {
    super('Cannot verify access tokens right now (the identity service is unreachable); retry shortly');
    this.headers = { 'Retry-After': '5' };
  }
}
