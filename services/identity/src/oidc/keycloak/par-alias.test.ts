import { bareProvider } from '../../../test/bare-provider.js';
import { LEGACY_PAR_PATH, ROUTES } from '../routes.js';
import { parAlias } from './par-alias.js';

describe('parAlias', () => {
  it('when a pushed authorization request uses the earlier path, then it reaches the PAR endpoint', async () => {
    const { request } = await bareProvider(() => [parAlias]);
    const viaAlias = await request.post(LEGACY_PAR_PATH).type('form').send({ client_id: 'app', client_secret: 'app-secret', response_type: 'code' });
    const direct = await request.post(ROUTES.pushed_authorization_request).type('form').send({ client_id: 'app', client_secret: 'app-secret', response_type: 'code' });
    expect(viaAlias.status).not.toBe(404);
    expect(viaAlias.status).toBe(direct.status);
    expect(viaAlias.body).toEqual(direct.body);
  });
});
