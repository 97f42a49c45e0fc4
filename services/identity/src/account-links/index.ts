export {
  ACTION_TOKEN_PATH,
  ActionLinkUnusableError,
  completeActionLink,
  inspectActionLink,
  issueActionLink,
  requestPasswordReset,
  type AccountActionsDeps,
} from './account-links.js';
export { AccountMail } from './account-mail.js';
export { ActionTokensRepository, type ActionToken } from './action-tokens.repository.js';
export { OutboxRepository as MailOutboxRepository } from './outbox.repository.js';
