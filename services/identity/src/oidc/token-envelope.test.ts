import { randomBytes } from 'node:crypto';
import { KeyRing } from '@hush/common';
import { bareSigningKey, ISSUER } from '../../test/bare-provider.js';
import { envelopeKeys, openRefreshEnvelope, refreshTokenEnvelope } from './token-envelope.js';

const now = Math.floor(Date.now() / 1000);
const token = { id: 'stored-refresh-token-id', clientId: 'app', accountId: 'user-1', scope: 'openid', iat: now, exp: now + 3600 };

describe('refresh-token envelopes across a MASTER_KEY rotation', () => {
  const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
  const keysOf = async (ring: KeyRing) => envelopeKeys(ISSUER, [await bareSigningKey()], ring);

  it('signs under the newest key, opens what an older key of the ring signed, and nothing once that key is gone', async () => {
    const before = await keysOf(KeyRing.of(oldKey));
    const during = await keysOf(KeyRing.of(newKey, [oldKey]));
    const after = await keysOf(KeyRing.of(newKey));
    const signedBefore = await refreshTokenEnvelope(before, token);
    const signedDuring = await refreshTokenEnvelope(during, token);
    expect(await openRefreshEnvelope(during, signedBefore)).toBe(token.id);
    expect(await openRefreshEnvelope(after, signedDuring)).toBe(token.id);
    expect(await openRefreshEnvelope(after, signedBefore)).toBeUndefined();
    expect(await openRefreshEnvelope(during, `${signedDuring.slice(0, -2)}AA`)).toBeUndefined();
  });
});
