import { parseForms } from '@hush/testing';
import { secretsPerFile, type Harness } from './harness.js';

/**
 * The pages' language: `kc_locale` (a switcher's choice, remembered in a cookie), then
 * `ui_locales`, then that cookie, then Accept-Language, then English. The API never changes.
 */
let h: Harness;
let auth: string;
secretsPerFile((started, account) => {
  h = started;
  auth = account;
});

const share = async (fields: Record<string, string> = {}) => {
  const res = await h.http
    .post('/api/v1/share')
    .set('Authorization', auth)
    .type('form')
    .send({ secret: 'words', ...fields });
  expect(res.status).toBe(200);
  return res.body as { secret_key: string; metadata_key: string };
};
const cookieOf = (res: { headers: Record<string, unknown> }) => ((res.headers['set-cookie'] as string[] | undefined) ?? []).find((c) => c.startsWith('hush_locale='));

describe('the language of the reveal page', () => {
  it('is English by default, with the product’s header and a switcher to German that works without JavaScript', async () => {
    const s = await share();
    const page = await h.http.get(`/secret/${s.secret_key}`);
    expect(page.text).toContain('<html lang="en">');
    expect(page.headers['content-language']).toBe('en');
    expect(page.text).toContain('<header class="masthead"><a class="product" href="/"');
    expect(page.text).toContain('Someone sent you a secret');
    expect(page.text).toContain(`<a href="/secret/${s.secret_key}?kc_locale=de" hreflang="de" lang="de">Deutsch</a>`);
    expect(cookieOf(page)).toBeUndefined();
  });

  it('follows ui_locales and Accept-Language, and kc_locale above both', async () => {
    const s = await share();
    const hinted = await h.http.get(`/secret/${s.secret_key}?ui_locales=fr%20de`);
    expect(hinted.text).toContain('<html lang="de">');
    expect(hinted.text).toContain('Jemand hat Ihnen ein Geheimnis geschickt');
    expect(cookieOf(hinted)).toBeUndefined();
    const accepted = await h.http.get(`/secret/${s.secret_key}`).set('Accept-Language', 'fr-CH, de-AT;q=0.8, en;q=0.5');
    expect(accepted.text).toContain('Geheimnis aufdecken');
    const chosen = await h.http.get(`/secret/${s.secret_key}?kc_locale=en&ui_locales=de`).set('Accept-Language', 'de');
    expect(chosen.text).toContain('Reveal the secret');
  });

  it('remembers a switcher’s choice in a cookie, which then outranks Accept-Language', async () => {
    const s = await share({ passphrase: 'pass' });
    const switched = await h.http.get(`/secret/${s.secret_key}?kc_locale=de`);
    const cookie = cookieOf(switched);
    expect(cookie).toMatch(/^hush_locale=de; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    const later = await h.http.get(`/secret/${s.secret_key}`).set('Cookie', 'hush_locale=de').set('Accept-Language', 'en');
    expect(later.text).toContain('<html lang="de">');
    // The reveal form in German: a wrong passphrase keeps the page German, the value shows under the German label.
    const form = parseForms(later.text).find((f) => f.action === `/secret/${s.secret_key}`);
    const pageCookie = (later.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
    const revealed = await h.http
      .post(`/secret/${s.secret_key}`)
      .set('Cookie', `${pageCookie}; hush_locale=de`)
      .type('form')
      .send({ ...form?.hidden, passphrase: 'pass' });
    expect(revealed.status).toBe(200);
    expect(revealed.text).toContain('<label for="value">Das Geheimnis</label>');
    expect(revealed.text).toContain('words');
    // A page that answers a form has no switcher: following it would lose what the page shows.
    expect(revealed.text).not.toContain('hreflang');
  });

  it('words the gone page and the receipt in German too', async () => {
    const gone = await h.http.get(`/secret/${'x'.repeat(31)}?kc_locale=de`);
    expect(gone.status).toBe(404);
    expect(gone.text).toContain('Dieses Geheimnis ist nicht verfügbar');
    const s = await share();
    const receipt = await h.http.get(`/private/${s.metadata_key}`).set('Accept-Language', 'de');
    expect(receipt.text).toContain('Beleg des Geheimnisses');
    expect(receipt.text).toContain('Noch nicht angesehen');
  });

  it('leaves the API as it was: no language, whatever the request asks', async () => {
    const res = await h.http.post('/api/v1/share?kc_locale=de').set('Authorization', auth).set('Accept-Language', 'de').type('form').send({ secret: 'x' });
    expect(res.status).toBe(200);
    expect(res.headers['content-language']).toBeUndefined();
    expect(cookieOf(res)).toBeUndefined();
    const unknown = await h.http.get('/api/v1/nothing-here?kc_locale=de');
    expect(unknown.headers['content-language']).toBeUndefined();
    expect(cookieOf(unknown)).toBeUndefined();
  });
});
