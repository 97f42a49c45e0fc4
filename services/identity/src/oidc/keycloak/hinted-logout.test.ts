import { bareProvider } from '../../../test/bare-provider.js';
import { ROUTES } from '../routes.js';
import { HINTED_CONFIRM_PARAM, hintedLogoutConfirm } from './hinted-logout.js';

const CONFIRM = `${ROUTES.end_session}/confirm`;

// The whole sign-out (a browser with a session and a valid hint) is test/rp-logout.test.ts; here,
// what the middleware hands oidc-provider and what it leaves alone.
describe('hintedLogoutConfirm', () => {
  it('when the confirmation URL is fetched with a secret, then oidc-provider takes it as its logout form and checks the secret', async () => {
    const { request } = await bareProvider(() => [hintedLogoutConfirm()]);
    const res = await request
      .get(CONFIRM)
      .query({ [HINTED_CONFIRM_PARAM]: 'not-this-session-secret' })
      .accept('json');
    // No session holds this secret: refused by oidc-provider's own check, not unknown as a GET.
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });

  it('without the middleware, the same GET is no route of oidc-provider', async () => {
    const { request } = await bareProvider(() => []);
    const res = await request
      .get(CONFIRM)
      .query({ [HINTED_CONFIRM_PARAM]: 'not-this-session-secret' })
      .accept('json');
    expect(res.status).toBe(404);
  });

  it('when the GET carries no secret, or another path has one, then it is left to oidc-provider', async () => {
    const { request } = await bareProvider(() => [hintedLogoutConfirm()]);
    expect((await request.get(CONFIRM).accept('json')).status).toBe(404);
    const other = await request
      .get(ROUTES.end_session)
      .query({ [HINTED_CONFIRM_PARAM]: 'x' })
      .accept('json');
    expect(other.status).not.toBe(404);
    expect(other.body.error).not.toBe('invalid_request');
  });

  it('when the secret is sent twice, then it is left to oidc-provider', async () => {
    const { request } = await bareProvider(() => [hintedLogoutConfirm()]);
    const res = await request.get(`${CONFIRM}?${HINTED_CONFIRM_PARAM}=a&${HINTED_CONFIRM_PARAM}=b`).accept('json');
    expect(res.status).toBe(404);
  });
});
