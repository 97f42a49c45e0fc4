import { localeOf } from '@hush/common/i18n';
import type { User } from '../users/index.js';

/**
 * The profile a person may change of themselves, checked as Keycloak's user profile checks it,
 * so the account REST API can answer Keycloak's error shapes and the page can word them:
 * - first and last name: at most 255 characters (`error-invalid-length`);
 * - e-mail: empty (none) or an address, at most 254 characters (`invalidEmailMessage`);
 * - username: read-only here (`error-user-attribute-read-only`), as in Keycloak's default realm;
 * - locale (Keycloak's `locale` attribute): empty (none) or a language the pages are written in
 *   (`error-invalid-value`).
 */
export interface ProfileInput {
  firstName?: string | null | undefined;
  lastName?: string | null | undefined;
  email?: string | null | undefined;
  /** Only to compare: a different one is refused. */
  username?: string | undefined;
  locale?: string | null | undefined;
}

/** Keycloak's ErrorRepresentation of one field: the attribute, the message key, its parameters. */
export interface FieldError {
  field: string;
  errorMessage: string;
  params: string[];
  /** What the page says. */
  text: string;
}

const MAX_NAME = 255;
const MAX_EMAIL = 254;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The errors of `input` against `user`'s current profile; empty when it may be saved. */
export function profileErrors(user: Pick<User, 'username'>, input: ProfileInput): FieldError[] {
  const errors: FieldError[] = [];
  if (input.username !== undefined && input.username !== user.username) {
    errors.push({ field: 'username', errorMessage: 'error-user-attribute-read-only', params: ['username'], text: 'The username cannot be changed.' });
  }
  for (const [field, label] of [
    ['firstName', 'First name'],
    ['lastName', 'Last name'],
  ] as const) {
    const value = input[field];
    if (typeof value === 'string' && value.length > MAX_NAME) {
      errors.push({ field, errorMessage: 'error-invalid-length', params: [field, '0', String(MAX_NAME)], text: `${label} must be at most ${MAX_NAME} characters.` });
    }
  }
  const email = input.email;
  if (typeof email === 'string' && email !== '' && (email.length > MAX_EMAIL || !EMAIL.test(email))) {
    errors.push({ field: 'email', errorMessage: 'invalidEmailMessage', params: ['email', email], text: 'Enter a valid e-mail address.' });
  }
  const locale = input.locale;
  if (typeof locale === 'string' && locale !== '' && localeOf(locale) !== locale) {
    errors.push({ field: 'locale', errorMessage: 'error-invalid-value', params: ['locale'], text: 'Choose one of the languages offered.' });
  }
  return errors;
}

/** Empty text is no value (Keycloak removes an attribute sent empty). */
export const orNull = (value: string | null | undefined): string | null | undefined =>
  value === undefined ? undefined : value === null || value.trim() === '' ? null : value.trim();
