import { renderRecipientCodeEmail } from './recipient-code.js';
import { formatExpiry } from './secret-link.js';

const expiresAt = Date.UTC(2026, 0, 1, 12, 30) / 1000;

describe("the recipient's one-time code e-mail", () => {
  test('holds the code, names the sender and says until when it works', () => {
    const email = renderRecipientCodeEmail({ sender: 'alice', code: '482913', expiresAt });
    for (const part of [email.subject, email.text, email.html]) expect(part).toContain('482913');
    expect(email.text).toContain('alice');
    expect(email.text).toContain(formatExpiry(expiresAt));
  });

  test('holds no link at all', () => {
    const email = renderRecipientCodeEmail({ sender: 'alice@example.com', code: '482913', expiresAt });
    expect(email.text).not.toMatch(/https?:/);
    expect(email.html).not.toMatch(/href=|https?:/);
  });
});
