import { renderRecipientCodeEmail } from './recipient-code.js';
import { formatExpiry } from './secret-link.js';

const expiresAt = Date.UTC(2026, 0, 1, 12, 30) / 1000;

describe("the recipient's one-time code e-mail", () => {
  test('holds the code in the body only (a subject shows on a locked phone), names the sender and says until when it works', () => {
    const email = renderRecipientCodeEmail({ sender: 'alice', code: '482913', expiresAt });
    expect(email.subject).toBe('Your code to read the secret from alice');
    for (const part of [email.text, email.html]) expect(part).toContain('482913');
    expect(email.text).toContain('alice');
    expect(email.text).toContain(formatExpiry(expiresAt));
  });

  test('holds no link at all', () => {
    const email = renderRecipientCodeEmail({ sender: 'alice@example.com', code: '482913', expiresAt });
    expect(email.text).not.toMatch(/https?:/);
    expect(email.html).not.toMatch(/href=|https?:/);
  });

  test('in German when the job says so', () => {
    const email = renderRecipientCodeEmail({ sender: 'alice', code: '482913', expiresAt, locale: 'de-AT' });
    expect(email.subject).toBe('Ihr Code zum Lesen des Geheimnisses von alice');
    expect(email.subject).not.toContain('482913');
    expect(email.text).toContain('Donnerstag, 1. Januar 2026 um 12:30 UTC');
    expect(email.html).toContain('<html lang="de">');
  });
});
