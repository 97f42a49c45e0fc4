import { renderAccountLinkEmail } from './account-link.js';
import { formatExpiry } from './secret-link.js';

const view = {
  username: 'dave',
  link: 'https://id.example/auth/realms/public/login-actions/action-token?key=abc',
  expiresAt: Date.UTC(2026, 0, 1, 12, 30) / 1000,
};

describe('the identity account e-mails', () => {
  test.each([
    ['reset-password', 'Reset your password'],
    ['verify-email', 'Confirm your e-mail address'],
    ['execute-actions', 'Update your account'],
  ] as const)('a %s e-mail holds the link, the account name and the expiry in both bodies', (kind, subject) => {
    const email = renderAccountLinkEmail({ ...view, kind });
    expect(email.subject).toBe(subject);
    for (const body of [email.text, email.html]) {
      expect(body).toContain('dave');
      expect(body).toContain(formatExpiry(view.expiresAt));
    }
    expect(email.text).toContain(view.link);
    expect(email.html).toContain('href="https://id.example/auth/realms/public/login-actions/action-token?key=abc"');
  });

  test('an execute-actions e-mail lists the actions asked for', () => {
    const email = renderAccountLinkEmail({ ...view, kind: 'execute-actions', actions: ['UPDATE_PASSWORD', 'VERIFY_EMAIL'] });
    expect(email.text).toContain('choose a new password, then confirm your e-mail address');
  });

  test('escapes the username in HTML', () => {
    const email = renderAccountLinkEmail({ ...view, kind: 'reset-password', username: '<b>x</b>' });
    expect(email.html).not.toContain('<b>x</b>');
  });
});
