/**
 * Domain errors of the admin use-cases. The CLI prints them as `{ "error": code, "message" }`;
 * OAuth failures are oidc-provider's own error classes (RFC 6749 §5.2) and never pass through here.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalidInput = (message: string) => new DomainError('invalid_input', message);
export const alreadyExists = (what: string) => new DomainError('already_exists', `${what} already exists`);
export const notFound = (what: string) => new DomainError('not_found', `${what} not found`);
