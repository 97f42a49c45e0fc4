import { formatExpiry } from './secret-link.js';
import { renderNotificationEmail } from './notification.js';

const at = Date.UTC(2026, 0, 1, 12, 30) / 1000;

describe('the creator notification e-mail', () => {
  test.each([
    ['revealed', /opened and read/],
    ['burned', /burned before anyone read it/],
    ['expired', /expired without being read/],
    ['refused', /refused to someone who is not its recipient/],
  ] as const)('says the secret was %s, names it by its receipt short key in the body only and gives the time', (event, what) => {
    const email = renderNotificationEmail({ event, shortkey: 'abc123', at });
    expect(email.subject).toMatch(what);
    expect(email.subject).not.toContain('abc123');
    for (const part of [email.text, email.html]) expect(part).toContain('abc123');
    expect(email.text).toContain(formatExpiry(at));
  });

  test('holds no link at all', () => {
    const email = renderNotificationEmail({ event: 'revealed', shortkey: 'abc123', at });
    expect(email.text).not.toMatch(/https?:/);
    expect(email.html).not.toMatch(/href=|https?:/);
  });

  test('a refused attempt says the secret is still there', () => {
    const email = renderNotificationEmail({ event: 'refused', shortkey: 'abc123', at });
    expect(email.text).toContain('still there for its recipient');
    expect(email.text).not.toContain('gone from Hush');
  });
});
