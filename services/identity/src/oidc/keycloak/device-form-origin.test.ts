import { bareProvider } from '../../../test/bare-provider.js';
import { ROUTES } from '../routes.js';
import { deviceFormOrigin } from './device-form-origin.js';

const withCheck = () => bareProvider(() => [deviceFormOrigin('http://localhost:3000')]);

describe('deviceFormOrigin', () => {
  it('when the code form is posted from another site, then the cross-origin page answers 403', async () => {
    const { request } = await withCheck();
    const res = await request.post(ROUTES.code_verification).set('Origin', 'https://evil.test').type('form').send({ user_code: 'ABCD-EFGH' });
    expect(res.status).toBe(403);
    expect(res.text).toContain('not sent from this page');
  });

  it('when it is posted from our own origin, then oidc-provider handles it', async () => {
    const { request } = await withCheck();
    const res = await request.post(ROUTES.code_verification).set('Origin', 'http://localhost:3000').type('form').send({ user_code: 'ABCD-EFGH' });
    // The bare provider has no device flow: its own answer, not the cross-origin page.
    expect(res.status).toBe(404);
  });
});
