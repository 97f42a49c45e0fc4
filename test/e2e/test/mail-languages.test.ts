import request from 'supertest';
import { startIdentitySystem, type IdentitySystem } from './identity-system.js';

/**
 * The language of the handover e-mails identity causes, end to end (admin API → secrets → mailer →
 * SMTP): the language the admin call names (`ui_locales`), else the receiving account's `locale`
 * attribute, else the call's Accept-Language, else English. Each e-mail names what it carries and
 * who handed it over, with no secret or code in its subject.
 */
const ADMIN = '/auth/admin/realms/public';

let sys: IdentitySystem;
let admin: string;
beforeAll(async () => {
  sys = await startIdentitySystem();
  admin = await sys.adminToken();
}, 60_000);
afterAll(() => sys?.close());

const api = () => request(sys.identity.url);

/** The newest e-mail to `to`: subject and text. */
async function mailTo(to: string): Promise<{ subject: string; text: string }> {
  const [mail] = await sys.smtp.waitFor(to, 1, 30_000);
  return { subject: mail!.mail.subject ?? '', text: mail!.mail.text ?? '' };
}

it('a new account whose locale attribute is German gets its first password in a German e-mail naming the account and the administrator', async () => {
  const created = await api()
    .post(`${ADMIN}/users`)
    .query({ handoverTo: 'ops-de@example.com' })
    .auth(admin, { type: 'bearer' })
    .send({ username: 'ops-oncall-de', email: 'ops-de@example.com', enabled: true, attributes: { locale: ['de'] } });
  expect(created.status).toBe(201);
  const user = await api().get(`${ADMIN}/users`).query({ username: 'ops-oncall-de', exact: true }).auth(admin, { type: 'bearer' });
  expect((user.body as { attributes?: Record<string, string[]> }[])[0]?.attributes?.['locale']).toEqual(['de']);

  const mail = await mailTo('ops-de@example.com');
  expect(mail.subject).toBe('Ihr erstes Passwort für das Konto ops-oncall-de');
  expect(mail.text).toContain('hush-admin');
  expect(mail.subject).not.toMatch(/\d{4,}|https?:/);
});

it('a client secret follows the call’s ui_locales, then its Accept-Language; English otherwise', async () => {
  const handOver = async (clientId: string, to: string, how: { query?: Record<string, string>; language?: string }) => {
    const call = api()
      .post(`${ADMIN}/clients`)
      .query({ handoverTo: to, ...how.query })
      .auth(admin, { type: 'bearer' });
    if (how.language) void call.set('Accept-Language', how.language);
    const res = await call.send({ clientId, name: 'Reports exporter', serviceAccountsEnabled: true, standardFlowEnabled: false });
    expect(res.status).toBe(201);
    return mailTo(to);
  };
  const named = await handOver('reports-ui', 'reports-ui@example.com', { query: { ui_locales: 'de' }, language: 'en' });
  expect(named.subject).toBe('Das Client-Secret von Reports exporter');
  expect(named.text).toContain('reports-ui');
  expect(named.text).toContain('hush-admin');
  const browser = await handOver('reports-al', 'reports-al@example.com', { language: 'de-AT, en;q=0.3' });
  expect(browser.subject).toBe('Das Client-Secret von Reports exporter');
  const plain = await handOver('reports-en', 'reports-en@example.com', {});
  expect(plain.subject).toBe('The client secret of Reports exporter');
});
