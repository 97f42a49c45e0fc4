import { displayName } from './escape.js';
import { formatExpiry, renderSecretLinkEmail } from './secret-link.js';

const view = {
  sender: 'alice',
  link: 'https://hush.example/secret/abc123',
  passphraseRequired: false,
  expiresAt: Date.UTC(2026, 0, 1, 12, 30) / 1000,
};

describe('the secret-link e-mail', () => {
  test('names the sender in the subject and both bodies and holds the link in both', () => {
    const email = renderSecretLinkEmail(view);
    expect(email.subject).toBe('alice sent you a secret');
    expect(email.text).toContain('alice sent you a secret.');
    expect(email.text).toContain('https://hush.example/secret/abc123');
    expect(email.html).toContain('<strong>alice</strong> sent you a secret.');
    expect(email.html).toContain('href="https://hush.example/secret/abc123"');
  });

  test('says the link works once and gives its expiry in UTC', () => {
    expect(formatExpiry(view.expiresAt)).toMatch(/^Thursday,? 1 January 2026,? at 12:30 UTC$/);
    const email = renderSecretLinkEmail(view);
    expect(email.text).toContain(`works only once`);
    expect(email.text).toContain(`It expires on ${formatExpiry(view.expiresAt)}.`);
    expect(email.html).toContain(`It expires on ${formatExpiry(view.expiresAt)}.`);
  });

  test('says whether a passphrase is needed', () => {
    expect(renderSecretLinkEmail(view).text).toContain('No passphrase is needed');
    const withPassphrase = renderSecretLinkEmail({ ...view, passphraseRequired: true });
    expect(withPassphrase.text).toContain('You need a passphrase to read it.');
    expect(withPassphrase.html).toContain('You need a passphrase to read it.');
  });

  test('a zero-knowledge link without its key says the sender gives the key apart', () => {
    expect(renderSecretLinkEmail(view).text).not.toContain('its key is not in this e-mail');
    const apart = renderSecretLinkEmail({ ...view, keyApart: true });
    expect(apart.text).toContain('its key is not in this e-mail (nor did our server ever have it): alice will give you the full link, or its key, separately.');
    expect(apart.html).toContain('its key is not in this e-mail');
  });

  test('escapes the sender and the link in HTML', () => {
    const email = renderSecretLinkEmail({
      ...view,
      sender: '<img src=x onerror=alert(1)>',
      link: 'https://hush.example/secret/a"><script>x</script>',
    });
    expect(email.html).not.toContain('<img');
    expect(email.html).not.toContain('<script>');
    expect(email.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(email.html).toContain('href="https://hush.example/secret/a&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
  });

  test('keeps line breaks and control characters of the sender out of the subject', () => {
    const email = renderSecretLinkEmail({ ...view, sender: 'mallory\r\nBcc: victim@example.com' });
    expect(email.subject).toBe('mallory Bcc: victim@example.com sent you a secret');
    expect(email.subject).not.toMatch(/[\r\n]/);
  });
});

describe('displayName', () => {
  test('displayName cuts long names and falls back when nothing printable is left', () => {
    expect(displayName('x'.repeat(300))).toHaveLength(100);
    expect(displayName('\u0000\u0007')).toBe('Someone');
  });

  test('a recipient-only secret says only this address can read it, and how', () => {
    expect(renderSecretLinkEmail(view).text).not.toContain('for this address only');
    const email = renderSecretLinkEmail({ ...view, recipientOnly: true });
    expect(email.text).toContain('for this address only');
    expect(email.html).toContain('one-time code');
  });
});
