import { APP_FORM, bareProvider } from '../../../test/bare-provider.js';
import { ROUTES } from '../routes.js';
import { requestText } from './request-text.js';

describe('requestText', () => {
  it('when a form body holds a NUL, then 400 invalid_request before oidc-provider reads it', async () => {
    const { request } = await bareProvider(() => [requestText()]);
    const res = await request.post(ROUTES.token).type('form').send('grant_type=client_credentials&client_id=app&client_secret=app-secret&scope=%00');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('when a form body is not UTF-8, then 400 invalid_request', async () => {
    const { request } = await bareProvider(() => [requestText()]);
    const res = await request.post(ROUTES.token).type('form').send('grant_type=client_credentials&client_id=app&client_secret=app-secret&scope=%C3%28');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });

  it('when a JSON body holds a lone surrogate, then 400 invalid_request', async () => {
    const { request } = await bareProvider(() => [requestText()]);
    const res = await request.post(ROUTES.token).type('json').send('{"grant_type":"client_credentials","scope":"\\ud800"}');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });

  it('when the body is well-formed text, then oidc-provider reads it as before', async () => {
    const { request } = await bareProvider(() => [requestText()]);
    const res = await request
      .post(ROUTES.token)
      .type('form')
      .send({ ...APP_FORM, grant_type: 'client_credentials' });
    expect(res.status).toBe(200);
    expect(res.body.access_token).toEqual(expect.any(String));
  });
});
