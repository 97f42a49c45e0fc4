import { randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import request from 'supertest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { freePort, postForm, type Received } from '@hush/testing';
import { zkParseLink, zkRead } from '@hush/zk';
import { authorize, clientConfig } from '../../../services/identity/test/flows.js';
import { startIdentity, type Harness as IdentityHarness } from '../../../services/identity/test/harness.js';
import { startIdentitySystem, type IdentitySystem } from './identity-system.js';

/**
 * Credentials handed over as one-time secrets, end to end: the admin API (identity) shares a new
 * client secret or password through the secrets service's public API, the secrets service mails
 * the owner a one-time link (BullMQ → mailer → a real SMTP server here), the owner reads it once
 * and uses it, and the receipt in the admin API says so. The credential is never in identity's
 * answer, its database, its logs or its events.
 */

const ADMIN = '/auth/admin/realms/public';
let sys: IdentitySystem;
let admin: string;
const suffix = randomBytes(3).toString('hex');
/** Every credential handed over in this file. */
const handedOver: string[] = [];

beforeAll(async () => {
  sys = await startIdentitySystem();
  admin = await sys.adminToken();
}, 60_000);
afterAll(() => sys?.close());

const api = () => request(sys.identity.url);

/** The one-time link's secret key in the e-mail to `to` (the `count`-th), read once through the secrets API. */
async function readHandedOver(to: string, count = 1): Promise<string> {
  const mails = await sys.smtp.waitFor(to, count, 30_000);
  const mail = mails[count - 1] as Received;
  const key = /\/secret\/([0-9a-z]{31})/.exec(mail.mail.text ?? '')?.[1];
  expect(key).toBeDefined();
  const read = await sys.secrets.http.post(`/api/v1/secret/${key}`);
  expect(read.status).toBe(200);
  const value = String((read.body as { value: string }).value);
  handedOver.push(value);
  // Once only.
  expect((await sys.secrets.http.post(`/api/v1/secret/${key}`)).status).toBe(404);
  return value;
}

const clientCredentials = (clientId: string, secret: string) => postForm(sys.tokenUrl, { grant_type: 'client_credentials', client_id: clientId, client_secret: secret });

const receipt = async (id: string) => {
  const res = await api().get(`${ADMIN}/handovers/${id}`).auth(admin, { type: 'bearer' });
  expect(res.status).toBe(200);
  return res.body as { state: string; deliveryStatus: string | null; received: number | null; recipient: string; kind: string; subjectId: string };
};

describe('a client secret handed over', () => {
  it('at creation and at rotation reaches its owner as a one-time link, works at the token endpoint, and its receipt shows it opened', async () => {
    const owner = `owner-${suffix}@example.com`;
    const created = await api()
      .post(`${ADMIN}/clients`)
      .query({ handoverTo: owner })
      .auth(admin, { type: 'bearer' })
      .send({ clientId: `svc-${suffix}`, serviceAccountsEnabled: true, standardFlowEnabled: false });
    expect(created.status).toBe(201);
    const id = String(created.headers['location']).split('/').pop() as string;
    const handoverId = created.headers['hush-handover'] as string;
    expect(handoverId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await receipt(handoverId)).toMatchObject({ kind: 'client_secret', subjectId: id, recipient: expect.stringMatching(/\*/), received: null });

    const secret = await readHandedOver(owner);
    expect((await clientCredentials(`svc-${suffix}`, secret)).status).toBe(200);
    // Never readable back through the admin API: only its owner has it.
    expect((await api().get(`${ADMIN}/clients/${id}/client-secret`).auth(admin, { type: 'bearer' })).status).toBe(404);
    const opened = await receipt(handoverId);
    expect(opened).toMatchObject({ state: 'received', deliveryStatus: 'sent' });
    expect(opened.received).toEqual(expect.any(Number));

    const rotated = await api().post(`${ADMIN}/clients/${id}/client-secret`).query({ handoverTo: owner }).auth(admin, { type: 'bearer' });
    expect(rotated.status).toBe(200);
    expect(rotated.body).not.toHaveProperty('value');
    expect(rotated.body).toMatchObject({ type: 'secret', handover: { id: rotated.headers['hush-handover'], kind: 'client_secret', state: 'new' } });
    const next = await readHandedOver(owner, 2);
    expect(next).not.toBe(secret);
    expect((await clientCredentials(`svc-${suffix}`, secret)).status).toBe(401);
    expect((await clientCredentials(`svc-${suffix}`, next)).status).toBe(200);

    const list = await api().get(`${ADMIN}/handovers`).query({ subject: id }).auth(admin, { type: 'bearer' });
    expect((list.body as { id: string; state: string }[]).map((r) => [r.id, r.state])).toEqual([
      [rotated.headers['hush-handover'], 'received'],
      [handoverId, 'received'],
    ]);
  });

  it('its e-mail says what it carries and who handed it over: the client by name and id, the administrator; no code or secret in the subject', async () => {
    const owner = `named-${suffix}@example.com`;
    const created = await api()
      .post(`${ADMIN}/clients`)
      .query({ handoverTo: owner })
      .auth(admin, { type: 'bearer' })
      .send({ clientId: `reports-${suffix}`, name: 'Reports exporter', serviceAccountsEnabled: true, standardFlowEnabled: false });
    expect(created.status).toBe(201);
    const [mail] = await sys.smtp.waitFor(owner, 1, 30_000);
    expect(mail!.mail.subject).toBe('The client secret of Reports exporter');
    const text = mail!.mail.text ?? '';
    expect(text).toContain(`reports-${suffix}`);
    // The administrator here is the hush-admin client's service account, named by its client id.
    expect(text).toContain('hush-admin');
    await readHandedOver(owner);
  });

  it('is refused with a secret of the administrator’s choice, or a malformed address, and then nothing is created', async () => {
    const given = await api()
      .post(`${ADMIN}/clients`)
      .query({ handoverTo: `o-${suffix}@example.com` })
      .auth(admin, { type: 'bearer' })
      .send({ clientId: `given-${suffix}`, secret: randomBytes(24).toString('hex') });
    expect(given.status).toBe(400);
    const malformed = await api()
      .post(`${ADMIN}/clients`)
      .query({ handoverTo: 'not an address' })
      .auth(admin, { type: 'bearer' })
      .send({ clientId: `bad-${suffix}` });
    expect(malformed.status).toBe(400);
    const found = await api()
      .get(`${ADMIN}/clients`)
      .query({ clientId: `given-${suffix}` })
      .auth(admin, { type: 'bearer' });
    expect(found.body).toEqual([]);
  });
});

describe('a password handed over', () => {
  it('at user creation and at reset-password lets its owner sign in, and the admin sees only the receipt', async () => {
    const owner = `person-${suffix}@example.com`;
    const created = await api()
      .post(`${ADMIN}/users`)
      .query({ handoverTo: owner })
      .auth(admin, { type: 'bearer' })
      .send({ username: `person-${suffix}`, email: owner, enabled: true });
    expect(created.status).toBe(201);
    const userId = String(created.headers['location']).split('/').pop() as string;
    const first = await readHandedOver(owner);
    expect(await receipt(created.headers['hush-handover'] as string)).toMatchObject({ kind: 'password', subjectId: userId, state: 'received' });

    const reset = await api()
      .put(`${ADMIN}/users/${userId}/reset-password`)
      .query({ handoverTo: owner })
      .auth(admin, { type: 'bearer' })
      .send({ type: 'password', temporary: false });
    expect(reset.status).toBe(204);
    expect(reset.headers['hush-handover']).toMatch(/^[0-9a-f-]{36}$/);
    const second = await readHandedOver(owner, 2);

    // The owner signs in with the second password through the real login page; the first is refused.
    const redirect = 'http://127.0.0.1:9/callback';
    const app = await sys.identity.cli<{ client_id: string; client_secret: string }>(
      'clients',
      'create',
      '--name',
      `app ${suffix}`,
      '--grants',
      'authorization_code',
      '--scopes',
      'openid',
      '--redirect-uri',
      redirect,
    );
    const config = await clientConfig(sys.identity.issuer, app.client_id, app.client_secret);
    const { callback, verifier, state } = await authorize(config, { redirectUri: redirect, scope: 'openid', username: `person-${suffix}`, password: second });
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.access_token).toEqual(expect.any(String));
    await expect(authorize(config, { redirectUri: redirect, scope: 'openid', username: `person-${suffix}`, password: first })).rejects.toThrow();
  });

  it('with a value of the administrator’s choice is refused', async () => {
    const res = await api()
      .post(`${ADMIN}/users`)
      .query({ handoverTo: `p-${suffix}@example.com` })
      .auth(admin, { type: 'bearer' })
      .send({ username: `chosen-${suffix}`, credentials: [{ type: 'password', value: 'a chosen password', temporary: false }] });
    expect(res.status).toBe(400);
  });
});

describe('what identity keeps', () => {
  it('the admin events record each handover and to whom; no event, log line or database row holds a handed-over credential', async () => {
    expect(handedOver.length).toBeGreaterThanOrEqual(5);
    const events = await api().get(`${ADMIN}/admin-events`).query({ max: 100 }).auth(admin, { type: 'bearer' });
    expect(events.status).toBe(200);
    const handovers = (events.body as { representation?: string; resourcePath: string }[]).filter((e) => e.representation?.includes('"handover"'));
    expect(handovers.map((e) => e.resourcePath.split('/').pop()).sort()).toEqual(expect.arrayContaining(['client-secret', 'reset-password']));
    // Two client secrets at creation, one at rotation, a first password and a reset.
    expect(handovers.length).toBe(5);
    for (const e of handovers) expect(JSON.parse(e.representation as string)).toMatchObject({ handover: { id: expect.any(String), to: expect.stringMatching(/@example\.com$/) } });
    const userEvents = await api().get(`${ADMIN}/events`).query({ max: 500 }).auth(admin, { type: 'bearer' });

    const dump = await sys.identityDump();
    expect(dump).toContain('client_secret'); // the handovers table is in it
    const everything = [JSON.stringify(events.body), JSON.stringify(userEvents.body), sys.identity.logs.join('\n'), dump];
    for (const credential of [...handedOver, sys.handoverSecret]) for (const text of everything) expect(text).not.toContain(credential);
  });
});

describe('when the secrets service cannot be reached', () => {
  let lonely: IdentityHarness;
  beforeAll(async () => {
    lonely = await startIdentity({ SECRETS_URL: `http://127.0.0.1:${await freePort()}`, HANDOVER_CLIENT_SECRET: randomBytes(32).toString('hex') });
  }, 60_000);
  afterAll(() => lonely?.close());

  it('a rotation with handover answers 503 and the client keeps its secret', async () => {
    const boot = await lonely.cli<{ admin_client: { client_secret: string } }>('bootstrap', '--secrets-audience', `https://secrets-${suffix}.example.com/api/v1`);
    const tokenUrl = `${lonely.issuer}/protocol/openid-connect/token`;
    const token = String(
      (await postForm(tokenUrl, { grant_type: 'client_credentials', client_id: 'hush-admin', client_secret: boot.admin_client.client_secret })).body['access_token'],
    );
    const made = await lonely.cli<{ client_id: string; client_secret: string; id?: string }>('clients', 'create', '--name', `c ${suffix}`, '--grants', 'client_credentials');
    const found = await request(lonely.url).get(`${ADMIN}/clients`).query({ clientId: made.client_id }).auth(token, { type: 'bearer' });
    const id = (found.body as { id: string }[])[0]?.id;
    const res = await request(lonely.url)
      .post(`${ADMIN}/clients/${id}/client-secret`)
      .query({ handoverTo: `x-${suffix}@example.com` })
      .auth(token, { type: 'bearer' });
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect((await postForm(tokenUrl, { grant_type: 'client_credentials', client_id: made.client_id, client_secret: made.client_secret })).status).toBe(200);
  });
});

describe('zero-knowledge, with LINK_KEY_SEALING_KEY in identity and the mailer', () => {
  let zk: IdentitySystem;
  let token: string;
  beforeAll(async () => {
    const linkKey = randomBytes(32).toString('hex');
    zk = await startIdentitySystem({ LINK_KEY_SEALING_KEY: linkKey }, { mailerEnv: { LINK_KEY_SEALING_KEY: linkKey } });
    token = await zk.adminToken();
  }, 60_000);
  afterAll(() => zk?.close());

  it('identity encrypts the credential before sharing it: the secrets service holds only ciphertext and never the key; the owner’s e-mailed link opens it once', async () => {
    const owner = `zk-owner-${suffix}@example.com`;
    const created = await request(zk.identity.url)
      .post(`${ADMIN}/clients`)
      .query({ handoverTo: owner })
      .auth(token, { type: 'bearer' })
      .send({ clientId: `zk-svc-${suffix}`, serviceAccountsEnabled: true, standardFlowEnabled: false });
    expect(created.status).toBe(201);
    const [mail] = await zk.smtp.waitFor(owner, 1, 30_000);
    const link = /https?:\/\/\S+\/secret\/[0-9a-z]{31}#[A-Za-z0-9_-]{43}/.exec(mail?.mail.text ?? '')?.[0] as string;
    expect(zkParseLink(link)).toBeDefined();
    const key = zkParseLink(link)?.key as Uint8Array;

    // The secrets service has the ciphertext: its classic read refuses it, and its rows, outbox and logs hold neither the key nor the credential.
    const secretKey = /\/secret\/([0-9a-z]{31})/.exec(link)?.[1] as string;
    expect((await zk.secrets.http.post(`/api/v1/secret/${secretKey}`)).body.code).toBe('key_proof_required');
    const opened = await zkRead({}, link);
    const credential = opened.text as string;
    expect((await postForm(zk.tokenUrl, { grant_type: 'client_credentials', client_id: `zk-svc-${suffix}`, client_secret: credential })).status).toBe(200);
    const { stdout } = await promisify(execFile)('pg_dump', ['--data-only', zk.secrets.config.DATABASE_URL], { maxBuffer: 64 * 1024 * 1024 });
    for (const text of [stdout, zk.secrets.logs.join('\n')]) {
      for (const needle of [credential, Buffer.from(key).toString('base64url'), Buffer.from(key).toString('hex')]) expect(text).not.toContain(needle);
    }
    await expect(zkRead({}, link)).rejects.toThrow();
    const handover = await request(zk.identity.url)
      .get(`${ADMIN}/handovers/${String(created.headers['hush-handover'])}`)
      .auth(token, { type: 'bearer' });
    expect(handover.body).toMatchObject({ state: 'received', deliveryStatus: 'sent' });
  });
});
