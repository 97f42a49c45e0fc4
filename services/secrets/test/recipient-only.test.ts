import ajv2020 from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { Browser, eventually, parseForms, startSmtp, type TestSmtp } from '@hush/testing';
import type { Harness as IdentityHarness } from '../../identity/test/harness.js';
import { hashKey } from '../src/secrets/keys.js';
import { bearer, type Harness } from './harness.js';
import { startWithIdentity, userToken } from './identity.js';

/**
 * Recipient-only secrets through the API (both dialects) and the reveal page's one-time code, on
 * the real identity service (users with and without a verified address), PostgreSQL and an SMTP
 * server (inline delivery: the mailer's own sending code). Every answer is checked against the
 * OpenAPI document.
 */
const PASSWORD = 'correct horse battery staple';
const SECRET = 'prod-db: 9f!x Ω';
let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(() => smtp?.close());

describe.each([
  ['spec', {}],
  ['onetimesecret', { API_DIALECT: 'onetimesecret' }],
] as const)('API_DIALECT=%s', (dialect, env) => {
  let identity: IdentityHarness;
  let h: Harness;
  let auth: string;
  let doc: { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } }>> };
  const ajv = new ajv2020.default({ strict: false, allErrors: true });
  ajvFormats.default(ajv);
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    ({ identity, h } = await startWithIdentity({ ...env, DELIVERY_MODE: 'inline', SMTP_URL: smtp.url }));
    await identity.cli('users', 'create', 'bob', '--password', PASSWORD, '--email', 'bob@example.com', '--email-verified');
    await identity.cli('users', 'create', 'carol', '--password', PASSWORD, '--email', 'carol@example.com', '--email-verified');
    // Claims bob's address, but identity never verified it.
    await identity.cli('users', 'create', 'mallory', '--password', PASSWORD, '--email', 'Bob@Example.com');
    auth = (await h.account()).auth;
    doc = (await h.http.get('/api/v1/openapi.json')).body as typeof doc;
    ajv.addSchema(doc, `openapi-${dialect}.json`);
    for (const user of ['bob', 'carol', 'mallory']) tokens[user] = await userToken(identity, user, PASSWORD, 'secrets:read');
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await identity?.close();
  });

  const pointer = (...parts: string[]) => parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
  function conforms(path: string, res: { status: number; body: unknown }, method = 'post') {
    const validate = ajv.getSchema(`openapi-${dialect}.json#/${pointer('paths', path, method, 'responses', String(res.status), 'content', 'application/json', 'schema')}`);
    expect(validate).toBeDefined();
    if (!validate?.(res.body)) throw new Error(`${method} ${path} ${res.status} does not match the document: ${JSON.stringify(validate?.errors)}`);
    return res.body as Record<string, unknown>;
  }

  /** Onetime Secret v1 answers every refusal 404, the intended status in X-OTS-Intended-Status. */
  function expectRefusal(res: { status: number; headers: Record<string, unknown> }, status: number) {
    if (dialect === 'spec') expect(res.status).toBe(status);
    else expect([res.status, res.headers['x-ots-intended-status']]).toEqual([404, String(status)]);
  }

  const share = (fields: Record<string, unknown>) =>
    h.http
      .post('/api/v1/share')
      .set('Authorization', auth)
      .send({ secret: SECRET, ...fields });
  const reveal = (key: string, authorization?: string) => {
    const req = h.http.post(`/api/v1/secret/${key}`);
    return authorization ? req.set('Authorization', authorization) : req;
  };

  it('documents recipient_only on share, and needs a recipient for it', async () => {
    expect(Object.keys(doc.paths['/share']?.['post']?.requestBody?.content['application/json']?.schema.properties ?? {})).toContain('recipient_only');
    const res = await share({ recipient_only: true });
    expectRefusal(res, 400);
    conforms('/share', res);
    if (dialect === 'spec') expect(res.body).toMatchObject({ code: 'recipient_required' });
  });

  it('generate takes recipient_only too: the generated secret is for its recipient only', async () => {
    expect(Object.keys(doc.paths['/generate']?.['post']?.requestBody?.content['application/json']?.schema.properties ?? {})).toContain('recipient_only');
    const generated = await h.http.post('/api/v1/generate').set('Authorization', auth).send({ recipient: 'bob@example.com', recipient_only: 'true' });
    expect(generated.status).toBe(200);
    const body = conforms('/generate', generated);
    expect(body['recipient_only']).toBe(true);
    expectRefusal(await reveal(body['secret_key'] as string), 403);
    const read = await reveal(body['secret_key'] as string, bearer(tokens['bob'] as string));
    expect(conforms('/secret/{secret_key}', read)['value']).toBe(body['value']);
  });

  it('when anyone but the recipient asks, then 403 and the secret stays; the recipient’s token reads it once, and the receipt names them', async () => {
    const created = await share({ recipient: 'bob@example.com', recipient_only: true, notify_email: 'alice@example.com' });
    expect(created.status).toBe(200);
    const body = conforms('/share', created);
    expect(body['recipient_only']).toBe(true);
    const secretKey = body['secret_key'] as string;
    const metadataKey = body['metadata_key'] as string;

    // No credentials, another account, an unverified claim of the same address: refused, nothing consumed.
    for (const who of [undefined, bearer(tokens['carol'] as string), bearer(tokens['mallory'] as string)]) {
      const refused = await reveal(secretKey, who);
      expectRefusal(refused, 403);
      conforms('/secret/{secret_key}', refused);
      if (dialect === 'spec') expect(refused.body).toMatchObject({ code: 'secret_for_recipient' });
    }
    expect(await h.db('secrets').where('secret_hash', hashKey(secretKey)).count({ n: '*' })).toEqual([{ n: 1 }]);

    const read = await reveal(secretKey, bearer(tokens['bob'] as string));
    expect(read.status).toBe(200);
    expect(conforms('/secret/{secret_key}', read)['value']).toBe(SECRET);
    expect((await reveal(secretKey, bearer(tokens['bob'] as string))).status).toBe(404);

    if (dialect === 'spec') {
      const receipt = conforms('/private/{metadata_key}', await h.http.get(`/api/v1/private/${metadataKey}`).set('Authorization', auth), 'get');
      expect(receipt).toMatchObject({ state: 'received', received_by: 'bob', recipient_only: true, refused_attempts: 3 });
      expect(receipt['received']).toBeGreaterThan(0);
    }
  });

  it('tells the creator of refused openings once per interval, without the secret or its link', async () => {
    const to = `creator-${dialect}@example.com`;
    const created = await share({ recipient: 'bob@example.com', recipient_only: true, notify_email: to });
    const secretKey = (created.body as { secret_key: string }).secret_key;
    for (let i = 0; i < 5; i++) expectRefusal(await reveal(secretKey, bearer(tokens['carol'] as string)), 403);
    const [mail] = await smtp.waitFor(to, 1);
    expect(mail?.mail.subject).toMatch(/refused to someone who is not its recipient/);
    const text = `${mail?.mail.text ?? ''}${typeof mail?.mail.html === 'string' ? mail.mail.html : ''}`;
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(secretKey);
    expect(text).not.toMatch(/https?:\/\//);
    // Once no refusal waits in the outbox (a row goes when its outcome is known), the relay has sent all it would: still one.
    await eventually(async () => ((await h.db('outbox').where('notify_event', 'refused').count({ n: '*' }))[0]?.n === 0 ? true : undefined));
    expect(smtp.to(to)).toHaveLength(1);
  });

  it('the reveal page shows who it is for and reveals nothing; a code e-mailed to the address reads it once', async () => {
    const recipient = `nobody-${dialect}@example.com`;
    const created = await share({ recipient, recipient_only: true });
    const secretKey = (created.body as { secret_key: string }).secret_key;
    const metadataKey = (created.body as { metadata_key: string }).metadata_key;
    await smtp.waitFor(recipient, 1); // the link e-mail

    const browser = new Browser(h.url);
    const page = await browser.navigate(`/secret/${secretKey}`);
    expect(page.res.status).toBe(200);
    expect(page.html).toContain('no*****@e*****.com');
    expect(page.html).not.toContain(SECRET);
    // Reveal without proof: refused, the secret stays.
    const form = parseForms(page.html).find((f) => f.action === `/secret/${secretKey}/code`);
    expect(form).toBeDefined();
    const refused = await browser.send(`/secret/${secretKey}`, { ...form?.hidden });
    expect(refused.status).toBe(403);
    expect(refused.text).not.toContain(SECRET);

    const codePage = await browser.navigate(`/secret/${secretKey}/code`, { ...form?.hidden });
    expect(codePage.res.status).toBe(200);
    const [, codeMail] = await smtp.waitFor(recipient, 2);
    const code = /\b(\d{6})\b/.exec(codeMail?.mail.text ?? '')?.[1];
    expect(code).toBeDefined();
    expect(codeMail?.mail.text).not.toMatch(/https?:\/\//);
    // Stored only as a 32-byte HMAC.
    expect((await h.db('recipient_codes').select<{ code_hash: Buffer }[]>('code_hash')).map((r) => r.code_hash.length)).toEqual([32]);

    const wrong = await browser.submit(codePage.html, 0, { code: code === '000000' ? '111111' : '000000' });
    expect(wrong.res.status).toBe(401);
    expect(wrong.html).toContain('4 attempt(s) left');
    const read = await browser.submit(wrong.html, 0, { code: code as string });
    expect(read.res.status).toBe(200);
    expect(read.html).toContain(SECRET);
    // Single use: the secret and its code are gone.
    expect((await browser.submit(wrong.html, 0, { code: code as string })).res.status).toBe(404);

    if (dialect === 'spec') {
      const receipt = conforms('/private/{metadata_key}', await h.http.get(`/api/v1/private/${metadataKey}`).set('Authorization', auth), 'get');
      expect(receipt).toMatchObject({ state: 'received', received_by: 'verified address' });
    }
  });

  it('parallel wrong codes get no more than the attempt limit, then the code is gone; a new one waits its turn; nothing is consumed', async () => {
    const recipient = `guessed-${dialect}@example.com`;
    const created = await share({ recipient, recipient_only: true });
    const secretKey = (created.body as { secret_key: string }).secret_key;
    const browser = new Browser(h.url);
    const page = await browser.navigate(`/secret/${secretKey}`);
    const hidden = parseForms(page.html).find((f) => f.action === `/secret/${secretKey}/code`)?.hidden ?? {};
    expect((await browser.send(`/secret/${secretKey}/code`, hidden)).status).toBe(200);
    const [, codeMail] = await smtp.waitFor(recipient, 2);
    const code = /\b(\d{6})\b/.exec(codeMail?.mail.text ?? '')?.[1] as string;
    const wrong = code === '000000' ? '111111' : '000000';

    const answers = await Promise.all(Array.from({ length: 8 }, () => browser.send(`/secret/${secretKey}`, { ...hidden, code: wrong })));
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 8 }, () => 401));
    expect(answers.filter((a) => /attempt\(s\) left|no longer works/.test(a.text))).toHaveLength(8);
    // The limit spent, even the right code no longer opens it...
    const late = await browser.send(`/secret/${secretKey}`, { ...hidden, code });
    expect(late.status).toBe(401);
    expect(late.text).toContain('no longer works');
    // ...and a new code is not sent at once (one per 30 seconds).
    const again = await browser.send(`/secret/${secretKey}/code`, hidden);
    expect(again.status).toBe(429);
    expect(await h.db('secrets').where('secret_hash', hashKey(secretKey)).count({ n: '*' })).toEqual([{ n: 1 }]);
    expect(smtp.to(recipient)).toHaveLength(2);
  });
});
