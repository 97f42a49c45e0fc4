import { randomBytes } from 'node:crypto';
import { alternative, BashClient, join, path, raw, type Json } from './bash-client.js';
import { startOtsCompatible, type Harness } from './server.js';

/**
 * Every assertion of Onetime Secret's bash client test suite (`test.shunit2` in
 * eengstrom/onetimesecret-bash, commit 5215953), replayed with the same requests
 * (bash-client.ts) against Hush in the Onetime Secret dialect with anonymous shares on. Each
 * `it` names the shunit2 function it reproduces; like the suite, it creates secrets anonymously
 * and only `testRecent` uses credentials.
 */
let h: Harness;
let ots: BashClient;
let account: { custid: string; token: string };
/** oneTimeSetUp: a random 32-character alphanumeric secret, reused by the tests. */
const SECRET = randomBytes(48)
  .toString('base64')
  .replace(/[^a-zA-Z0-9]/g, '')
  .slice(0, 32);

beforeAll(async () => {
  h = await startOtsCompatible();
  account = await h.account();
  ots = new BashClient({ host: h.url });
});
afterAll(() => h.close());

describe('test.shunit2', () => {
  it('testJQ: the JSON picking the client relies on (jq ., .foo, .xxx // "moo", .xxx)', () => {
    const doc = JSON.parse('{\n  "foo": "bar"\n}') as Json;
    expect(JSON.stringify(doc, null, 2)).toBe('{\n  "foo": "bar"\n}'); // JQ parse 1
    expect(JSON.stringify(path(doc, 'foo'))).toBe('"bar"'); // JQ parse 2
    expect(JSON.stringify(alternative(doc, 'xxx', { literal: 'moo' }))).toBe('"moo"'); // JQ parse 3
    expect(raw(path(JSON.parse('{ "foo": "bar" }') as Json, 'xxx'))).toBe('null'); // JQ parse fail
  });

  it('testJoin: joining arguments', () => {
    expect(join('&')).toBe('');
    expect(join('&', 'foo')).toBe('foo');
    expect(join('&', 'foo', 'bar', 'baz')).toBe('foo&bar&baz');
    expect(join(' -- ', 'foo', 'bar', 'baz')).toBe('foo -- bar -- baz');
  });

  it('testValidateArgs: get and burn without a key fail before any request', async () => {
    await expect(ots.get()).rejects.toThrow('No URL or secret key given'); // No args get()
    await expect(ots.burn()).rejects.toThrow('No metadata key given'); // No args burn()
  });

  it('testStatus: status is nominal (ots_status and ./ots status)', async () => {
    expect(await ots.status()).toBe('nominal');
    expect(await new BashClient({ host: h.url }).status()).toBe('nominal');
  });

  it('testCommandLineSecrets: a secret given as arguments comes back joined by spaces', async () => {
    const words = ['secret-s string', 'secret -s=string', 'secret=string', 'no-arg string', ...'Remaining args are part of the secret too'.split(' ')];
    const url = await ots.share(words);
    expect(url).toMatch(new RegExp(`^${h.url}/secret/[0-9a-z]{31}$`)); // Command line secret created
    expect(await ots.get(url)).toBe(join(' ', ...words)); // Command line secret retrieved
  });

  it('testSTDINSecrets: a secret from stdin, one line or a heredoc of two', async () => {
    const url = await ots.share([SECRET]);
    expect(url).toMatch(/\/secret\/[0-9a-z]{31}$/); // SDTIN secret created
    expect(await ots.get(url)).toBe(SECRET); // STDIN secret retrieved

    const url2 = await ots.share([`${SECRET}\n${SECRET}`]);
    expect(url2).toMatch(/\/secret\/[0-9a-z]{31}$/); // HEREDOC SDTIN secret created
    expect(await ots.get(url2)).toBe(`${SECRET}\n${SECRET}`); // HEREDOC STDIN secret retrieved
  });

  it('testGetWithURLsOrKey: retrieve by URL or by bare key', async () => {
    const url = await ots.share([SECRET]);
    expect(await ots.get(url)).toBe(SECRET); // Fetch Secret with URL
    const url2 = await ots.share([SECRET]);
    const key = url2.slice(url2.lastIndexOf('/') + 1);
    expect(await ots.get(key)).toBe(SECRET); // Fetch Secret with KEY
  });

  it('testShareAndBurn: new, viewed, burned; burning again and reading are "Unknown secret"', async () => {
    const key = await ots.metashare([SECRET]);
    expect(key).not.toBe(''); // Secret created; non null
    expect(key).not.toBe('null');
    expect(await ots.state(key)).toBe('new'); // State Secret: 'new'
    expect(await ots.state(key)).toBe('viewed'); // State Secret: 'viewed'
    expect(await ots.burn(key)).toBe('burned'); // Burn a secret.
    expect(await ots.state(key)).toBe('burned'); // State Secret: 'burned'
    expect(await ots.burn(key)).toBe('Unknown secret'); // Try to burn again.
    expect(await ots.get(key)).toBe('Unknown secret'); // Try get burned secret.
  });

  it('testGenerate: a generated secret shows viewed at once, then burns', async () => {
    const key = await ots.metagenerate();
    expect(key).toMatch(/^[0-9a-z]{31}$/); // Secret generated; non null
    expect(await ots.state(key)).toBe('viewed'); // State Secret: 'viewed' ("generated secrets are 'immediately' viewed")
    expect(await ots.burn(key)).toBe('burned'); // Burn a secret.
    expect(await ots.state(key)).toBe('burned'); // State Secret: 'burned'
  });

  it('testMetadata: the metadata has the key and state new, gives the secret key, then says received', async () => {
    const metakey = await ots.metashare([SECRET]);
    expect(metakey).toMatch(/^[0-9a-z]{31}$/); // Secret generated; non null

    let data = await ots.metadata(metakey);
    expect(data).not.toBeNull(); // Empty Metadata?
    expect(JSON.stringify(path(data, 'metadata_key'))).toBe(`"${metakey}"`); // Metadata key matches
    expect(JSON.stringify(path(data, 'state'))).toBe('"new"'); // Metadata State: 'new'

    const key = await ots.key(metakey);
    expect(key).toMatch(/^[0-9a-z]{31}$/); // Empty Secret Key?
    expect(await ots.get(key)).toBe(SECRET); // Secret isn't valid.

    data = await ots.metadata(metakey);
    expect(data).not.toBeNull(); // Empty Metadata?
    expect(JSON.stringify(path(data, 'state'))).toBe('"received"'); // Metadata State: 'received'
    expect(await ots.state(metakey)).toBe('received'); // Secret State: 'received'
  });

  it('testRecent: recent needs credentials; with them, the newest item is the secret just made', async () => {
    expect(await ots.recent()).toBe('Authentication Required'); // Unauth recent() call
    // What the client prevents, the server refuses too.
    const anonymous = await fetch(`${h.url}/api/v1/private/recent`);
    expect(anonymous.status).toBe(404);
    expect(await anonymous.json()).toEqual({ message: 'Not authorized' });

    ots.setUser(account.custid);
    ots.setKey(account.token);
    try {
      const metakey = await ots.metashare([SECRET]);
      const first = (await ots.recent()).split('\n')[0];
      expect(first).toBe(metakey); // Recent secrets not equal
      expect(await ots.state(metakey)).toBe('new'); // Secret State: 'new'
      expect(await ots.get(await ots.key(metakey))).toBe(SECRET); // Secret isn't valid.
      expect(await ots.state(metakey)).toBe('received'); // Secret State: 'received'
    } finally {
      ots.setUser('');
      ots.setKey('');
    }
    expect(await ots.recent()).toBe('Authentication Required'); // Unauth recent() call 2
  });

  it('testMetadataTTL: the metadata ttl is twice the requested one; the remaining times are just under', async () => {
    const TTL = 56789;
    const TTLx2 = TTL * 2;
    const mkey = await ots.metashare([SECRET], [['ttl', String(TTL)]]);
    const meta = await ots.metadata(mkey);

    expect(JSON.stringify(path(meta, 'ttl'))).toBe(String(TTLx2)); // TTL set properly

    const metaDelta = TTLx2 - Number(path(meta, 'metadata_ttl'));
    expect(metaDelta > 0 && metaDelta < 10).toBe(true); // Metadata TTL set properly

    const secretDelta = TTL - Number(path(meta, 'secret_ttl'));
    expect(secretDelta > 0 && secretDelta < 10).toBe(true); // Secret TTL set properly
  });

  it('testEncryptedSecrets: a passphrase shows in the metadata and opens the secret', async () => {
    const passphrase = randomBytes(48)
      .toString('base64')
      .replace(/[^a-zA-Z0-9]/g, '')
      .slice(0, 32);
    const mkey = await ots.metashare([SECRET], [['passphrase', passphrase]]);
    const meta = await ots.metadata(mkey);
    expect(JSON.stringify(path(meta, 'passphrase_required'))).toBe('true'); // Metadata shows passphrase required
    const skey = await ots.key(mkey);
    expect(await ots.get(skey, [['passphrase', passphrase]])).toBe(SECRET); // Get encrypted secret with passphrase
  });
});
