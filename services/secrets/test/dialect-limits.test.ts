import { startSecretsWithAccount, type Account, type Harness } from './harness.js';

/**
 * The default plan follows the dialect unless DEFAULT_PLAN says otherwise: Onetime Secret's
 * clients get onetimesecret.com's 10,000 characters for an account; the spec dialect keeps basic.
 */
describe.each([
  ['onetimesecret', { API_DIALECT: 'onetimesecret' }, 10_000, 404],
  ['spec', {}, 1_000, 413],
  ['onetimesecret with DEFAULT_PLAN=basic', { API_DIALECT: 'onetimesecret', DEFAULT_PLAN: 'basic' }, 1_000, 404],
] as const)('%s', (_name, env, limit, refusal) => {
  let h: Harness;
  let alice: Account;
  beforeAll(async () => ({ h, alice } = await startSecretsWithAccount(env)));
  afterAll(() => h.close());

  it(`an account without a plan shares ${limit} characters, not one more`, async () => {
    const share = (n: number) =>
      h.http
        .post('/api/v1/share')
        .set('Authorization', alice.auth)
        .send({ secret: 'é'.repeat(n) });
    expect((await share(limit)).status).toBe(200);
    expect((await share(limit + 1)).status).toBe(refusal);
  });
});
