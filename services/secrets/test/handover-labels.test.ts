import { startSmtp, type TestSmtp } from '@hush/testing';
import type { Harness as IdentityHarness } from '../../identity/test/harness.js';
import { bearer, type Harness } from './harness.js';
import { clientToken, startWithIdentity } from './identity.js';

/**
 * A service client's share may say what it carries (identity's credential handover): the
 * `handover_*` fields, sealed with the secret, make the e-mail and the reveal page name the
 * credential, who handed it over and what to do with it. A person's share may not; the answers
 * of the API stay as they were.
 */
let smtp: TestSmtp;
let identity: IdentityHarness;
let h: Harness;
let token: string;

beforeAll(async () => {
  smtp = await startSmtp();
  ({ identity, h } = await startWithIdentity({ DELIVERY_MODE: 'inline', SMTP_URL: smtp.url }));
  token = (await clientToken(identity, 'secrets:read secrets:write')).accessToken;
});
afterAll(async () => {
  await h?.close();
  await identity?.close();
  await smtp?.close();
});

const label = { handover_kind: 'client_secret', handover_name: 'Reports <exporter>', handover_id: 'reports-exporter', handover_by: 'Ada Admin' };

it('names the client secret in the e-mail (in the language asked) and on the reveal page; the answer is that of any share', async () => {
  const plain = await h.http.post('/api/v1/share').set('Authorization', bearer(token)).type('form').send({ secret: 'a', recipient: 'plain@example.com' });
  const res = await h.http
    .post('/api/v1/share')
    .set('Authorization', bearer(token))
    .type('form')
    .send({ secret: 's3cr3t-value', recipient: 'owner@example.com', locale: 'de', ...label });
  expect(res.status).toBe(200);
  expect(Object.keys(res.body as object).sort()).toEqual(Object.keys(plain.body as object).sort());
  expect(JSON.stringify(res.body)).not.toMatch(/Reports|Ada|handover/);

  const [mail] = await smtp.waitFor('owner@example.com', 1);
  expect(mail?.mail.subject).toBe('Das Client-Secret von Reports <exporter>');
  expect(mail?.mail.text).toContain('Ada Admin hat Ihnen das Client-Secret von Reports <exporter> (reports-exporter) übergeben');
  expect(mail?.mail.html).toContain('<strong>Reports &lt;exporter&gt;</strong> (<code>reports-exporter</code>)');
  expect(`${mail?.mail.subject} ${mail?.mail.text}`).not.toContain('s3cr3t-value');

  const key = (res.body as { secret_key: string }).secret_key;
  const page = await h.http.get(`/secret/${key}`);
  expect(page.text).toContain('Ada Admin handed you the client secret of <strong>Reports &lt;exporter&gt;</strong>');
  expect(page.text).toContain('<code>reports-exporter</code>');
  expect(page.text).toContain('configuration of the application that signs in as this client');
  // Stored only sealed with the secret: the database alone does not name it.
  const rows = JSON.stringify(await h.db('secrets').select('*'));
  expect(rows).not.toContain('Reports');
  expect(rows).not.toContain(Buffer.from('Reports').toString('hex'));
});

it('shows the label above the revealed value', async () => {
  const res = await h.http
    .post('/api/v1/share')
    .set('Authorization', bearer(token))
    .type('form')
    .send({ secret: 'first-pw', handover_kind: 'first_password', handover_name: 'ops-oncall' });
  const key = (res.body as { secret_key: string }).secret_key;
  const page = await h.http.get(`/secret/${key}`);
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1] as string;
  const cookie = (page.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
  const revealed = await h.http.post(`/secret/${key}`).set('Cookie', cookie).type('form').send({ csrf });
  expect(revealed.status).toBe(200);
  expect(revealed.text).toContain('<label for="value">Your first password for the account ops-oncall</label>');
  expect(revealed.text).toContain('first-pw');
});

it('refuses a label from anyone but a service client, and a label without its kind or name', async () => {
  const { auth } = await h.account();
  const byPerson = await h.http
    .post('/api/v1/share')
    .set('Authorization', auth)
    .type('form')
    .send({ secret: 'x', ...label });
  expect(byPerson.status).toBe(400);
  expect((byPerson.body as { code?: string }).code ?? JSON.stringify(byPerson.body)).toMatch(/invalid_handover|service clients/);
  const nameless = await h.http.post('/api/v1/share').set('Authorization', bearer(token)).type('form').send({ secret: 'x', handover_kind: 'password' });
  expect(nameless.status).toBe(400);
  const badKind = await h.http.post('/api/v1/share').set('Authorization', bearer(token)).type('form').send({ secret: 'x', handover_kind: 'api_key', handover_name: 'n' });
  expect(badKind.status).toBe(400);
  const twoLines = await h.http.post('/api/v1/share').set('Authorization', bearer(token)).type('form').send({ secret: 'x', handover_kind: 'password', handover_name: 'a\r\nb' });
  expect(twoLines.status).toBe(400);
});

it('takes a malformed language as no language, never as a refusal (Onetime Secret’s clients may send anything)', async () => {
  for (const locale of ['not a tag', 'x'.repeat(40), '<de>']) {
    const res = await h.http.post('/api/v1/share').set('Authorization', bearer(token)).type('form').send({ secret: 'x', recipient: 'any@example.com', locale });
    expect(res.status).toBe(200);
  }
});
