export {
  ACTION_TOKEN_PATH,
  ActionLinkUnusableError,
  completeActionLink,
  inspectActionLink,
  issueActionLink,
  requestPasswordReset,
  type AccountActionsDeps,
} from './account-links.js';
export { AccountMail, accountMailOf, accountMailReady } from './account-mail.js';
export { ActionTokensRepository, type ActionToken } from './action-tokens.repository.js';
export { OutboxRepository as MailOutboxRepository } from './outbox.repository.js';
export { REGISTRATION_PATH, RESEND_VERIFICATION_PATH, RESET_PATH } from './account-links.routes.js';
export { verifyEmailFirstPage } from './account-links.views.js';
