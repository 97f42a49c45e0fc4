import { bareProvider, bareSigningKey, ISSUER } from '../../../test/bare-provider.js';
import { realmInfo } from './realm-info.js';

describe('realmInfo', () => {
  it('when the realm root is read, then it names the realm, its RS256 public key and its token service', async () => {
    const key = await bareSigningKey();
    const { request } = await bareProvider(() => [realmInfo(ISSUER, [key])]);
    const res = await request.get('/');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toMatchObject({ realm: 'public', 'token-service': `${ISSUER}/protocol/openid-connect`, 'tokens-not-before': 0 });
    expect(res.body.public_key).toMatch(/^MII/);
    expect(JSON.stringify(res.body)).not.toContain(String(key.d));
  });

  it('when another path or method is asked, then it passes on', async () => {
    const { request } = await bareProvider(() => [realmInfo(ISSUER, [])]);
    expect((await request.post('/')).status).toBe(404);
  });
});
