import { parseForms } from '@hush/testing';
import { secretsPerFile, type Harness } from './harness.js';

let h: Harness;
let auth: string;
secretsPerFile((started, account) => {
  h = started;
  auth = account;
});

const share = async (fields: Record<string, string>) => {
  const res = await h.http.post('/api/v1/share').set('Authorization', auth).type('form').send(fields);
  expect(res.status).toBe(200);
  return res.body as { secret_key: string; metadata_key: string };
};

/** A page's form as the browser holds it: the CSRF token and the cookie it is bound to. */
type Form = { csrf: string; cookie: string };
const formOn = async (path: string): Promise<Form> => {
  const page = await h.http.get(path);
  const csrf = parseForms(page.text).find((f) => 'csrf' in f.hidden)?.hidden['csrf'] as string;
  const cookie = (page.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
  return { csrf, cookie };
};
/** Submits the page's form, as its button does. */
const submit = (path: string, form: Form, fields: Record<string, string> = {}) =>
  h.http
    .post(path)
    .set('Cookie', form.cookie)
    .type('form')
    .send({ csrf: form.csrf, ...fields });

describe('the page behind the secret link', () => {
  it('GET shows that a secret waits and consumes nothing, however often (link unfurlers, mail scanners)', async () => {
    const s = await share({ secret: 'unfurl-proof' });
    for (let i = 0; i < 3; i++) {
      const page = await h.http.get(`/secret/${s.secret_key}`).set('User-Agent', 'Slackbot-LinkExpanding 1.0');
      expect(page.status).toBe(200);
      expect(page.text).toContain('Reveal the secret');
      expect(page.text).not.toContain('unfurl-proof');
    }
    const form = await formOn(`/secret/${s.secret_key}`);
    const reveal = await submit(`/secret/${s.secret_key}`, form);
    expect(reveal.status).toBe(200);
    expect(reveal.text).toContain('unfurl-proof');
    expect(reveal.text).toContain('deleted');

    const again = await submit(`/secret/${s.secret_key}`, form);
    expect(again.status).toBe(404);
    expect(again.text).not.toContain('unfurl-proof');
    expect((await h.http.get(`/secret/${s.secret_key}`)).status).toBe(404);
  });

  it('asks for the passphrase, says when it is wrong, and reveals with the right one', async () => {
    const s = await share({ secret: 'behind-a-passphrase', passphrase: 'open sesame' });
    const page = await h.http.get(`/secret/${s.secret_key}`);
    expect(page.text).toContain('name="passphrase"');

    const form = await formOn(`/secret/${s.secret_key}`);
    const wrong = await submit(`/secret/${s.secret_key}`, form, { passphrase: 'wrong' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toMatch(/passphrase/i);
    expect(wrong.text).toContain('name="passphrase"');
    expect(wrong.text).not.toContain('behind-a-passphrase');

    const right = await submit(`/secret/${s.secret_key}`, form, { passphrase: 'open sesame' });
    expect(right.status).toBe(200);
    expect(right.text).toContain('behind-a-passphrase');
  });

  it('escapes the value: HTML in a secret is shown, never run', async () => {
    const s = await share({ secret: '<script>alert(1)</script>' });
    const reveal = await submit(`/secret/${s.secret_key}`, await formOn(`/secret/${s.secret_key}`));
    expect(reveal.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(reveal.text).not.toContain('<script>alert(1)');
  });

  it('is served with a strict CSP, no framing, no referrer and no caching', async () => {
    const s = await share({ secret: 'headers' });
    for (const res of [await h.http.get(`/secret/${s.secret_key}`), await submit(`/secret/${s.secret_key}`, await formOn(`/secret/${s.secret_key}`))]) {
      const csp = res.headers['content-security-policy'] as string;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toMatch(/script-src 'nonce-[^']+'/);
      expect(csp).not.toContain('unsafe-inline');
      expect(res.headers['referrer-policy']).toBe('same-origin');
      expect(res.headers['cache-control']).toBe('no-store');
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1] as string;
      for (const tag of res.text.match(/<script[^>]*>/g) ?? []) expect(tag).toContain(`nonce="${nonce}"`);
      expect(res.text).not.toMatch(/(src|href)="https?:/);
    }
  });

  it('an unknown or malformed key is the same "not available" page', async () => {
    expect((await h.http.get('/secret/doesnotexist0000000000000000000')).status).toBe(404);
    expect((await h.http.get('/secret/%3Cscript%3E')).status).toBe(404);
  });
});

describe('the receipt page', () => {
  it('shows the state and burns an unread secret from a button', async () => {
    const s = await share({ secret: 'to-burn', recipient: 'someone@example.com' });
    const receipt = await h.http.get(`/private/${s.metadata_key}`);
    expect(receipt.status).toBe(200);
    expect(receipt.text).toContain('data-state="new"');
    expect(receipt.text).toContain('so*****@e*****.com');
    expect(receipt.text).not.toContain('someone@example.com');
    expect(receipt.text).toContain('id="burn"');

    const revealForm = await formOn(`/secret/${s.secret_key}`);
    const burn = await submit(`/private/${s.metadata_key}/burn`, await formOn(`/private/${s.metadata_key}`));
    expect(burn.status).toBe(303);
    const after = await h.http.get(burn.headers['location'] as string);
    expect(after.text).toContain('data-state="burned"');
    expect(after.text).not.toContain('id="burn"');
    expect((await submit(`/secret/${s.secret_key}`, revealForm)).status).toBe(404);
  });

  it('shows received after the recipient read it', async () => {
    const s = await share({ secret: 'read-me' });
    await submit(`/secret/${s.secret_key}`, await formOn(`/secret/${s.secret_key}`));
    const receipt = await h.http.get(`/private/${s.metadata_key}`);
    expect(receipt.text).toContain('data-state="received"');
  });

  it('an unknown metadata key is a 404 page', async () => {
    expect((await h.http.get('/private/doesnotexist0000000000000000000')).status).toBe(404);
  });
});
