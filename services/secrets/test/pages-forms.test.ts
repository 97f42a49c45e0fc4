import type { Response } from 'supertest';
import { parseForms } from '@hush/testing';
import { secretsPerFile, type Harness } from './harness.js';

let h: Harness;
let auth: string;
secretsPerFile((started, account) => {
  h = started;
  auth = account;
});

const share = async (fields: Record<string, string> = { secret: 'form-guarded' }) => {
  const res = await h.http.post('/api/v1/share').set('Authorization', auth).type('form').send(fields);
  expect(res.status).toBe(200);
  return res.body as { secret_key: string; metadata_key: string };
};
const state = async (metadataKey: string) => ((await h.http.get(`/api/v1/private/${metadataKey}`).set('Authorization', auth)).body as { state: string }).state;

/** The page's form as a browser holds it: its CSRF token and the cookie it is bound to. */
const formOf = (page: Response) => {
  const csrf = parseForms(page.text).find((f) => 'csrf' in f.hidden)?.hidden['csrf'];
  const cookie = (page.headers['set-cookie'] as unknown as string[] | undefined)?.map((c) => c.split(';')[0]).join('; ');
  expect(csrf).toBeDefined();
  expect(cookie).toBeDefined();
  return { csrf: csrf as string, cookie: cookie as string };
};

/** The page's stylesheet carries the nonce its CSP allows (else the browser ignores it). */
const expectStyled = (res: Response) => {
  const csp = res.headers['content-security-policy'] as string;
  const nonce = /style-src 'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce).toBeDefined();
  expect(res.text).toContain(`<style nonce="${nonce}">`);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
};

describe('error pages', () => {
  it('render with the CSP nonce, so their styles load', async () => {
    expectStyled(await h.http.get('/secret/%ff'));
    expectStyled(await h.http.get('/secret/doesnotexist0000000000000000000'));
    expectStyled(await h.http.get('/private/doesnotexist0000000000000000000'));
    expectStyled(
      await h.http
        .post('/secret/doesnotexist0000000000000000000')
        .type('form')
        .send({ f: 'x'.repeat(17_000) }),
    );
    const s = await share();
    const form = formOf(await h.http.get(`/secret/${s.secret_key}`));
    const refused = await h.http.post(`/secret/${s.secret_key}`).set('Cookie', form.cookie).type('form').send({ csrf: 'forged' });
    expect(refused.status).toBe(400);
    expectStyled(refused);
  });
});

describe('malformed input is the caller’s error (4xx page), never a 500', () => {
  it.each(['/secret/%ff', '/private/%ff'])('GET %s', async (path) => {
    const res = await h.http.get(path);
    expect(res.status).toBe(400);
    expect(res.text).toContain('role="alert"');
  });

  it('POST /private/%ff/burn', async () => {
    const res = await h.http.post('/private/%ff/burn').type('form').send({});
    expect(res.status).toBe(400);
  });

  it('a reveal form over 16 kB, or with over 1,000 fields, is refused and consumes nothing', async () => {
    const s = await share();
    const form = formOf(await h.http.get(`/secret/${s.secret_key}`));
    const big = await h.http
      .post(`/secret/${s.secret_key}`)
      .set('Cookie', form.cookie)
      .type('form')
      .send({ csrf: form.csrf, passphrase: 'x'.repeat(17_000) });
    expect(big.status).toBe(413);
    expect(big.text).toContain('role="alert"');
    const fields = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`f${i}`, '1']));
    const many = await h.http
      .post(`/secret/${s.secret_key}`)
      .set('Cookie', form.cookie)
      .type('form')
      .send({ csrf: form.csrf, ...fields });
    expect(many.status).toBe(413);
    expect(await state(s.metadata_key)).toBe('new');
  });
});

describe('the reveal and burn forms are guarded against cross-site requests', () => {
  it('a reveal without the CSRF token, with a forged one, or with another browser’s, is refused and consumes nothing', async () => {
    const s = await share();
    const form = formOf(await h.http.get(`/secret/${s.secret_key}`));
    const other = formOf(await h.http.get(`/secret/${s.secret_key}`));
    for (const attempt of [
      h.http.post(`/secret/${s.secret_key}`).type('form').send({}),
      h.http.post(`/secret/${s.secret_key}`).set('Cookie', form.cookie).type('form').send({}),
      h.http.post(`/secret/${s.secret_key}`).set('Cookie', form.cookie).type('form').send({ csrf: 'forged' }),
      h.http.post(`/secret/${s.secret_key}`).set('Cookie', form.cookie).type('form').send({ csrf: other.csrf }),
      h.http.post(`/secret/${s.secret_key}`).type('form').send({ csrf: form.csrf }),
    ]) {
      const res = await attempt;
      expect(res.status).toBe(400);
      expect(res.text).toContain('role="alert"');
      expect(res.text).not.toContain('form-guarded');
    }
    expect(await state(s.metadata_key)).toBe('new');

    const ok = await h.http.post(`/secret/${s.secret_key}`).set('Cookie', form.cookie).type('form').send({ csrf: form.csrf });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('form-guarded');
  });

  it('a token for one secret does not reveal another', async () => {
    const a = await share();
    const b = await share();
    const form = formOf(await h.http.get(`/secret/${a.secret_key}`));
    const res = await h.http.post(`/secret/${b.secret_key}`).set('Cookie', form.cookie).type('form').send({ csrf: form.csrf });
    expect(res.status).toBe(400);
    expect(await state(b.metadata_key)).toBe('new');
  });

  it('a reveal that the browser says comes from another site is refused, even with a valid token', async () => {
    const s = await share();
    const form = formOf(await h.http.get(`/secret/${s.secret_key}`));
    for (const headers of [{ 'Sec-Fetch-Site': 'cross-site' }, { Origin: 'https://evil.example' }, { Referer: 'https://evil.example/page' }]) {
      const res = await h.http.post(`/secret/${s.secret_key}`).set('Cookie', form.cookie).set(headers).type('form').send({ csrf: form.csrf });
      expect(res.status).toBe(403);
      expect(res.text).toContain('role="alert"');
    }
    expect(await state(s.metadata_key)).toBe('new');
    // `Origin: null` beside `Sec-Fetch-Site: same-origin` is our own page (a browser under no-referrer says that).
    const ok = await h.http
      .post(`/secret/${s.secret_key}`)
      .set('Cookie', form.cookie)
      .set({ 'Sec-Fetch-Site': 'same-origin', Origin: 'null' })
      .type('form')
      .send({ csrf: form.csrf });
    expect(ok.status).toBe(200);
  });

  it('a burn without a valid token, or from another site, is refused and burns nothing', async () => {
    const s = await share();
    const form = formOf(await h.http.get(`/private/${s.metadata_key}`));
    for (const attempt of [
      h.http.post(`/private/${s.metadata_key}/burn`).type('form').send({}),
      h.http.post(`/private/${s.metadata_key}/burn`).set('Cookie', form.cookie).type('form').send({ csrf: 'forged' }),
    ]) {
      const res = await attempt;
      expect(res.status).toBe(400);
      expect(res.text).toContain('role="alert"');
    }
    const cross = await h.http.post(`/private/${s.metadata_key}/burn`).set('Cookie', form.cookie).set('Origin', 'https://evil.example').type('form').send({ csrf: form.csrf });
    expect(cross.status).toBe(403);
    expect(await state(s.metadata_key)).toBe('new');

    const burn = await h.http.post(`/private/${s.metadata_key}/burn`).set('Cookie', form.cookie).type('form').send({ csrf: form.csrf });
    expect(burn.status).toBe(303);
    expect(await state(s.metadata_key)).toBe('burned');
  });

  it('the API is not affected: no token, no cookie', async () => {
    const s = await share();
    const res = await h.http.post(`/api/v1/secret/${s.secret_key}`).set('Origin', 'https://evil.example');
    expect(res.status).toBe(200);
  });
});
