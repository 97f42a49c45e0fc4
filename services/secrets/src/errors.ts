import { AlreadyExistsError, DomainError, fixedError, wordedError } from '@hush/common';

/**
 * One class per failure of the secrets service, each a `DomainError` (packages/common/src/http/errors.ts)
 * with its HTTP status and a stable `code`; the API's error middleware (http/error-handler.ts)
 * turns them into `{ "message", "code" }`, the admin CLI into `error: <message>` and exit code 1.
 * The message is shown to the caller, so it never contains a secret, key, passphrase, token or
 * e-mail address.
 */
export { DomainError, MalformedBodyError, PayloadTooLargeError, RouteNotFoundError, UnsupportedMediaTypeError } from '@hush/common';

const CHALLENGE = { 'WWW-Authenticate': 'Basic realm="hush", Bearer realm="hush"' };

// 400
export class InvalidParameterError extends wordedError(400, 'invalid_parameter') {}
export class SecretRequiredError extends fixedError(400, 'secret_required', 'You did not provide anything to share') {}
export class InvalidTtlError extends DomainError {
  constructor(min: number, max: number) {
    super(400, 'invalid_ttl', `ttl must be a whole number of seconds from ${min} to ${max}`);
  }
}
export class InvalidRecipientError extends DomainError {
  constructor(detail = 'recipient must be one valid e-mail address') {
    super(400, 'invalid_recipient', detail);
  }
}
export class AnonymousRecipientError extends fixedError(400, 'account_required', 'An account is required to send emails.') {}
export class NotifyAddressRequiredError extends fixedError(
  400,
  'notify_email_required',
  "notify needs an address: give notify_email, as this account's id is not an e-mail address",
) {}
export class RecipientOnlyWithoutRecipientError extends fixedError(400, 'recipient_required', 'recipient_only needs a recipient address') {}
export class HandoverLabelError extends wordedError(400, 'invalid_handover') {}
export class InvalidCodeError extends DomainError {
  constructor(readonly left: number) {
    super(401, 'code_incorrect', left > 0 ? `That code is not right; ${left} attempt(s) left` : 'That code is not right, and it no longer works: ask for a new one');
  }
}
export class CodeUnavailableError extends fixedError(429, 'code_unavailable', 'No new code can be sent for this secret right now; use the last one, or try again in a minute') {}
export class InvalidShareDomainError extends fixedError(400, 'invalid_share_domain', 'share_domain must be a host name') {}
export class KeyProofRequiredError extends fixedError(
  400,
  'key_proof_required',
  'This secret was encrypted by its sender with the key in its link, which this service never had: read it with POST /zk/secret/{secret_key} and the proof of that key',
) {}
export class NotZeroKnowledgeError extends fixedError(400, 'not_zero_knowledge', 'This secret was encrypted by this service: read it with POST /secret/{secret_key}') {}
export class ZeroKnowledgeRequestError extends fixedError(
  400,
  'zero_knowledge_request',
  "This request takes only a secret encrypted by the sender's client for the requester: POST /zk/request/{request_key}",
) {}
export class PlainRequestError extends fixedError(400, 'not_zero_knowledge', 'This request has no public key: send the secret with POST /request/{request_key}') {}
export class AccountRequiredForFileError extends fixedError(400, 'account_required', 'An account is required to share a file.') {}
export class RecipientRequiredForLinkKeyError extends fixedError(400, 'recipient_required', 'link_key_sealed is for the e-mail to a recipient: give recipient') {}
export class LinkKeyNeedsMailerError extends fixedError(
  400,
  'link_key_needs_mailer',
  'A sealed link key is opened by the mailer only, and this service sends its e-mails itself (DELIVERY_MODE=inline)',
) {}
export class FileRequiredError extends fixedError(400, 'file_required', 'The upload is empty: send the encrypted records as the body') {}
export class UploadTypeError extends fixedError(415, 'unsupported_media_type', 'Send the encrypted records as application/octet-stream') {}
export class InvalidLengthError extends DomainError {
  constructor(min: number, max: number) {
    super(400, 'invalid_length', `length must be a whole number from ${min} to ${max}`);
  }
}

// 401
export class CredentialsRequiredError extends fixedError(401, 'credentials_required', 'Not authorized: send HTTP Basic username:api_token or a Bearer access token', CHALLENGE) {}
export class InvalidCredentialsError extends fixedError(401, 'invalid_credentials', 'Not authorized', CHALLENGE) {}
export class InvalidTokenError extends fixedError(401, 'invalid_token', 'Not authorized: the access token is invalid or expired', {
  'WWW-Authenticate': 'Bearer realm="hush", error="invalid_token"',
}) {}
/** Passphrase errors are 401 with their own codes (the key is a 160-bit capability: saying so leaks nothing). */
export class PassphraseRequiredError extends fixedError(401, 'passphrase_required', 'This secret requires a passphrase') {}
export class PassphraseIncorrectError extends DomainError {
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
export class InsufficientScopeError extends DomainError {
  constructor(scope: string) {
    super(403, 'insufficient_scope', `Forbidden: this operation needs the scope ${scope}`, {
      'WWW-Authenticate': `Bearer realm="hush", error="insufficient_scope", scope="${scope}"`,
    });
  }
}
export class UserTokenRequiredError extends fixedError(
  403,
  'user_token_required',
  "Forbidden: API tokens are minted with a user's Bearer access token (authorization code flow)",
) {}

/** A secret only one account may read (the answer to its request), asked for by anyone else; the secret stays. */
export class SecretForAnotherAccountError extends fixedError(
  403,
  'secret_for_another_account',
  'This secret can be read only by the account that requested it: sign in as that account',
) {}

export class SecretForRecipientError extends fixedError(
  403,
  'secret_for_recipient',
  'This secret can be read only by its recipient: a token of an account with that verified e-mail address, or the one-time code sent to it',
) {}

/**
 * The proof sent is not that of the secret's key (a link without its fragment, or with another):
 * the secret stays, readable with the right link, and nothing is counted.
 */
export class WrongKeyError extends fixedError(403, 'wrong_key', 'The key in this link is not the key of this secret: nothing was read or changed') {}

// 404: unknown, already read, burned and expired are deliberately indistinguishable.
export class UnknownSecretError extends fixedError(404, 'unknown_secret', 'Unknown secret') {}
export class UnknownTokenError extends fixedError(404, 'unknown_token', 'Unknown API token') {}
/** An upload that is not the caller's, not complete, already attached or expired; a download token unknown, used or expired. */
export class UnknownFileError extends fixedError(404, 'unknown_file', 'Unknown file: the upload or download is not there (expired, used, or not yours)') {}
/** Unknown, answered, cancelled and expired requests alike. */
export class UnknownRequestError extends fixedError(404, 'unknown_request', 'This request is not open: it was answered, cancelled or has expired') {}

// 413
export class SecretTooLongError extends DomainError {
  constructor(length: number, limit: number, plan: string) {
    super(413, 'secret_too_long', `Secret is ${length} characters; the ${plan} plan allows at most ${limit} characters`);
  }
}

export class EnvelopeTooLongError extends DomainError {
  constructor(bytes: number, limit: number, plan: string) {
    super(413, 'secret_too_long', `The envelope is ${bytes} bytes; the ${plan} plan allows at most ${limit} bytes (6 per character of the plan, and 1,024)`);
  }
}
export class FileTooLargeError extends DomainError {
  constructor(limit: number) {
    super(413, 'file_too_large', `The file is larger than this service takes: at most ${limit} bytes encrypted (FILE_MAX_BYTES of content)`);
  }
}

// 429
export class TooManyUploadsError extends fixedError(429, 'too_many_uploads', 'Too many files uploaded and not yet shared by this account: share or let them expire first', {
  'Retry-After': '60',
}) {}
export class RateLimitedError extends DomainError {
  constructor(retryAfter: number) {
    super(429, 'rate_limited', `Rate limit exceeded; retry in ${retryAfter} seconds`, { 'Retry-After': String(retryAfter) });
  }
}
export class TooManyAuthFailuresError extends DomainError {
  constructor(retryAfter: number) {
    super(429, 'too_many_auth_failures', `Too many failed authentications; retry in ${retryAfter} seconds`, { 'Retry-After': String(retryAfter) });
  }
}

// 503
export class IdentityUnavailableError extends fixedError(
  503,
  'identity_unavailable',
  'Cannot verify access tokens right now (the identity service is unreachable); retry shortly',
  {
    'Retry-After': '5',
  },
) {}

export class RevocationsUnavailableError extends fixedError(
  503,
  'revocations_unavailable',
  'Cannot check access tokens against revocations right now (the revocation feed is out of sync); retry shortly',
  { 'Retry-After': '1' },
) {}

// Accounts: the admin CLI and the API-token routes (a user token's username is the custid).
export class InvalidCustidError extends fixedError(400, 'invalid_input', 'custid must be 1 to 254 characters without spaces, colons or control characters') {}
export class UnknownPlanError extends DomainError {
  constructor(plan: string, plans: readonly string[]) {
    super(400, 'invalid_input', `unknown plan ${plan}; plans: ${plans.join(', ')}`);
  }
}
export class AccountExistsError extends AlreadyExistsError {
  constructor(custid: string) {
    super(`account ${custid}`);
  }
}
