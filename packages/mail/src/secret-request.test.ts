import { formatExpiry } from './secret-link.js';
import { renderSecretRequestEmail } from './secret-request.js';

const view = { requester: 'alice', label: 'Staging <db> password', link: 'https://hush.example/request/abc123', expiresAt: Date.UTC(2026, 0, 1, 12, 30) / 1000 };

describe('the secret request e-mail', () => {
  test('names the requester and the label, holds the link and says until when it works', () => {
    const email = renderSecretRequestEmail(view);
    expect(email.subject).toBe('alice asks you for a secret');
    expect(email.text).toContain('Staging <db> password');
    expect(email.text).toContain(view.link);
    expect(email.text).toContain(formatExpiry(view.expiresAt));
    expect(email.html).toContain(`href="${view.link}"`);
  });

  test('escapes the label in the HTML', () => {
    const email = renderSecretRequestEmail(view);
    expect(email.html).toContain('Staging &lt;db&gt; password');
    expect(email.html).not.toContain('<db>');
  });
});
