import { bareProvider } from '../../../test/bare-provider.js';
import { PROTOCOL } from '../routes.js';
import { sessionIframe } from './session-iframe.js';

const STATUS = `${PROTOCOL}/login-status-iframe.html`;
const withIframe = () => bareProvider((provider) => [sessionIframe(provider, { publicUrl: 'http://localhost:3000', allWebOrigins: async () => ['https://app.test'] })]);

describe('sessionIframe', () => {
  it("when keycloak-js loads the status page, then it is a page every registered web origin may frame, with the session cookie's name in its script", async () => {
    const { request } = await withIframe();
    const res = await request.get(STATUS);
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toContain('frame-ancestors');
    expect(res.headers['content-security-policy']).toContain('https://app.test');
    expect(res.text).toContain('hush_session_state');
  });

  it("when its init check names a client and one of the client's web origins, then 204; another origin 403; an unknown client 404; a missing parameter 400", async () => {
    const { request } = await withIframe();
    const init = (query: Record<string, string>) => request.get(`${STATUS}/init`).query(query);
    expect((await init({ client_id: 'app', origin: 'https://app.test' })).status).toBe(204);
    expect((await init({ client_id: 'app', origin: 'https://evil.test' })).status).toBe(403);
    expect((await init({ client_id: 'nobody', origin: 'https://app.test' })).status).toBe(404);
    expect((await init({ client_id: 'app' })).status).toBe(400);
  });

  it('when the third-party cookie check starts, then step 1 sets a test cookie and goes to step 2, which reports back', async () => {
    const { request } = await withIframe();
    expect((await request.get(`${PROTOCOL}/3p-cookies/step1.html`)).text).toContain('step2.html');
    expect((await request.get(`${PROTOCOL}/3p-cookies/step2.html`)).text).toContain('unsupported');
  });
});
