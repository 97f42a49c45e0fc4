import { randomBytes } from 'node:crypto';
import { openLinkKey, sealLinkKey, secretLinkJob } from './secret-link-job.js';

describe("a zero-knowledge link's key sealed for the mailer", () => {
  const key = randomBytes(32);
  const fragment = randomBytes(32).toString('base64url');

  it('opens with the key it was sealed under, and is not the fragment in any readable form', () => {
    const sealed = sealLinkKey(key, fragment);
    expect(sealed).not.toContain(fragment);
    expect(openLinkKey(key, sealed)).toBe(fragment);
    expect(secretLinkJob.shape.keySealed.safeParse(sealed).success).toBe(true);
  });

  it('does not open under another key (the secrets service has none), nor when altered', () => {
    const sealed = sealLinkKey(key, fragment);
    expect(() => openLinkKey(randomBytes(32), sealed)).toThrow();
    expect(() => openLinkKey(key, `${sealed.slice(0, -2)}AA`)).toThrow();
  });
});
