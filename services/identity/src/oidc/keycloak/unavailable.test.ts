import { DependencyUnavailableError } from '@hush/common';
import { capturingLogger } from '@hush/testing';
import { APP_FORM, bareProvider } from '../../../test/bare-provider.js';
import { ROUTES } from '../routes.js';
import { answerUnavailable } from './unavailable.js';

const { logger } = capturingLogger('unavailable-test');

async function failingWith(error: Error) {
  const rendered: string[] = [];
  const render = (_ctx: unknown, out: { error: string }) => void rendered.push(out.error);
  const { request } = await bareProvider((provider) => [answerUnavailable(provider, logger, render)], {
    extraTokenClaims: () => {
      throw error;
    },
  });
  return { request, rendered };
}

describe('answerUnavailable', () => {
  it('when a route fails because a dependency is out, then 503 temporarily_unavailable with Retry-After', async () => {
    const { request } = await failingWith(new DependencyUnavailableError('redis', new Error('connection refused')));
    const res = await request
      .post(ROUTES.token)
      .type('form')
      .send({ ...APP_FORM, grant_type: 'client_credentials' });
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect(res.body.error).toBe('temporarily_unavailable');
  });

  it('when a browser asks, then the answer is rendered as a page', async () => {
    const { request, rendered } = await failingWith(new DependencyUnavailableError('database', new Error('gone')));
    const res = await request
      .post(ROUTES.token)
      .type('form')
      .accept('html')
      .send({ ...APP_FORM, grant_type: 'client_credentials' });
    expect(res.status).toBe(503);
    expect(rendered).toEqual(['temporarily_unavailable']);
  });

  it("when a route fails for any other reason, then oidc-provider's 500 server_error stays", async () => {
    const { request } = await failingWith(new Error('a bug'));
    const res = await request
      .post(ROUTES.token)
      .type('form')
      .send({ ...APP_FORM, grant_type: 'client_credentials' });
    expect(res.status).toBe(500);
    expect(res.body.error).toBe('server_error');
  });
});
