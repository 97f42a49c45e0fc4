import { toDomainError } from '@hush/common';
import { CodeUnavailableError, InvalidCodeError, PassphraseIncorrectError, PassphraseRequiredError, SecretRequiredError } from '../../errors.js';
import type { PageMessages } from './messages/index.js';

/**
 * How a page words a refused form: the refusals a person meets on the reveal, share and answer
 * pages in the page's language; any other refusal in the service's own (English) message, which
 * never holds a secret.
 */
export function formErrorText(m: PageMessages, err: unknown): string {
  if (err instanceof PassphraseIncorrectError) return m.text('formErrors.passphraseIncorrect', { left: err.attemptsLeft });
  if (err instanceof PassphraseRequiredError) return m.text('formErrors.passphraseRequired');
  if (err instanceof InvalidCodeError) return m.text('formErrors.codeIncorrect', { left: err.left });
  if (err instanceof CodeUnavailableError) return m.text('formErrors.codeUnavailable');
  if (err instanceof SecretRequiredError) return m.text('formErrors.secretRequired');
  const message = toDomainError(err)?.message ?? '';
  return `${message}.`.replace(/([.!?])\.$/, '$1');
}
