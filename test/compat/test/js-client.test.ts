import { JsClient } from './js-client.js';
import { startOtsCompatible, type Harness } from './server.js';

/**
 * The npm client onetimesecret-api (1.1.3, unchanged) against Hush in the Onetime Secret dialect:
 * every public method, including the deprecated snake_case ones, and the errors it maps from
 * Onetime Secret's messages (UnknownSecretError, NotAuthorizedError).
 */
let h: Harness;
let ots: JsClient;
let account: { custid: string; token: string };

beforeAll(async () => {
  h = await startOtsCompatible();
  account = await h.account();
  ots = new JsClient(h.url, account.custid, account.token);
});
afterAll(async () => {
  await ots.close();
  await h.close();
});

const KEY = /^[0-9a-z]{31}$/;
type Answer = Record<string, unknown>;

it('status: true with valid credentials; wrong ones are refused (NotAuthorizedError)', async () => {
  expect(await ots.call('status')).toBe(true);
  await expect(ots.callAs({ user: account.custid, key: 'wrong' }, 'status')).rejects.toMatchObject({ name: 'NotAuthorizedError' });
});

it('share, retrieveMetadata, retrieveSecret: the life of a shared secret with a passphrase and a recipient', async () => {
  const shared = await ots.call<Answer>('share', 'the value', { passphrase: 'open sesame', ttl: 3600, recipient: 'foo@example.com' });
  expect(shared).toMatchObject({
    custid: account.custid,
    metadata_key: expect.stringMatching(KEY),
    secret_key: expect.stringMatching(KEY),
    ttl: 3600,
    metadata_ttl: 7200,
    secret_ttl: 3600,
    state: 'new',
    recipient: ['fo*****@e*****.com'],
    passphrase_required: true,
  });
  expect(shared['share_link']).toBe(`${h.url}/secret/${String(shared['secret_key'])}`);

  const meta = await ots.call<Answer>('retrieveMetadata', shared['metadata_key']);
  expect(meta).toMatchObject({ state: 'new', secret_key: shared['secret_key'], share_link: shared['share_link'], ttl: 7200, recipient: ['fo*****@e*****.com'] });

  await expect(ots.call('retrieveSecret', shared['secret_key'], { passphrase: 'wrong guess' })).rejects.toMatchObject({ name: 'UnknownSecretError' });
  await expect(ots.call('retrieveSecret', shared['secret_key'])).rejects.toMatchObject({ name: 'UnknownSecretError' });
  expect(await ots.call('retrieveSecret', shared['secret_key'], { passphrase: 'open sesame' })).toEqual({ secret_key: shared['secret_key'], value: 'the value' });
  await expect(ots.call('retrieveSecret', shared['secret_key'], { passphrase: 'open sesame' })).rejects.toMatchObject({ name: 'UnknownSecretError' });

  const received = await ots.call<Answer>('retrieveMetadata', shared['metadata_key']);
  expect(received).toMatchObject({ state: 'received', received: expect.any(Number) });
  expect(received).not.toHaveProperty('secret_key');
  expect(received).not.toHaveProperty('share_link');
});

it('generate with ttl 0 (the default), then burn: the nested answer with the secret short key', async () => {
  const generated = await ots.call<Answer>('generate', { ttl: 0 });
  expect(generated).toMatchObject({ state: 'new', ttl: 7 * 24 * 3600, recipient: [], passphrase_required: false, value: expect.stringMatching(/^.{12}$/) });
  expect(generated['share_link']).toBe(`${h.url}/secret/${String(generated['secret_key'])}`);

  expect(await ots.call('retrieveMetadata', generated['metadata_key'])).toMatchObject({ state: 'viewed' });

  const burned = await ots.call<{ state: Answer; secret_shortkey: string }>('burn', generated['metadata_key']);
  expect(burned.secret_shortkey).toBe(String(generated['secret_key']).slice(0, 6));
  expect(burned.state).toMatchObject({ state: 'burned', metadata_key: generated['metadata_key'], secret_key: '', custid: account.custid, recipient: [] });
  await expect(ots.call('burn', generated['metadata_key'])).rejects.toMatchObject({ name: 'UnknownSecretError' });
  await expect(ots.call('retrieveSecret', generated['secret_key'])).rejects.toMatchObject({ name: 'UnknownSecretError' });
});

it('recentMetadata: the account’s items, newest first, each with its metadata key', async () => {
  const first = await ots.call<Answer>('share', 'one');
  const second = await ots.call<Answer>('share', 'two');
  const recent = await ots.call<Answer[]>('recentMetadata');
  expect(recent.slice(0, 2).map((m) => m['metadata_key'])).toEqual([second['metadata_key'], first['metadata_key']]);
  for (const item of recent) {
    expect(item).toMatchObject({ custid: account.custid, recipient: expect.any(Array) });
    expect(item).not.toHaveProperty('secret_key');
  }
  expect(await ots.call('recent_metadata')).toEqual(recent);
});

it('the deprecated methods: shareLink, retrieve_secret, retrieve_metadata', async () => {
  const link = await ots.call<string>('shareLink', 'linked');
  expect(link).toMatch(new RegExp(`^${h.url}/secret/[0-9a-z]{31}$`));
  const recent = await ots.call<Answer[]>('recentMetadata');
  const metadataKey = recent[0]?.['metadata_key'];
  expect(await ots.call('retrieve_metadata', metadataKey)).toMatchObject({ state: 'new', share_link: link });
  expect(await ots.call('retrieve_secret', link.slice(link.lastIndexOf('/') + 1))).toMatchObject({ value: 'linked' });
});
