import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { Browser } from '@hush/testing';
import { startIdentitySystem, type IdentitySystem } from './identity-system.js';

/**
 * Identity behind an ingress whose public origin (AUTH_URL) the pod cannot reach: every call
 * identity makes to itself goes to INTERNAL_URL (its own listener). The admin console reads the
 * realm through the admin API there, and a credential handover fetches the handover client's token
 * there, before the secrets service mails the one-time link.
 */
const PUBLIC = 'http://auth.invalid:8443';
const PASSWORD = 'internal url correct horse';
const ADMIN = '/auth/admin/realms/public';
const suffix = randomBytes(3).toString('hex');

let sys: IdentitySystem;
let real: string;
beforeAll(async () => {
  sys = await startIdentitySystem((url) => {
    real = url;
    return { AUTH_URL: PUBLIC, INTERNAL_URL: url };
  });
  await sys.identity.cli('users', 'create', 'ida', '--password', PASSWORD);
  await sys.identity.cli('roles', 'grant', 'realm-admin', '--user', 'ida');
  await sys.identity.cli('users', 'create', `listed-${suffix}`, '--password', PASSWORD);
}, 60_000);
afterAll(() => sys?.close());

/** A browser that reaches the public origin (here: by rewriting it to the listener); the service does not. */
async function open(path: string, username: string): Promise<{ status: number; page: string }> {
  const browser = new Browser(real);
  const here = (url: string) => new URL(url, PUBLIC).href.replace(PUBLIC, real);
  let res = await browser.send(`${real}${path}`);
  let page = '';
  for (let hops = 0; hops < 12; hops++) {
    if (res.status >= 300 && res.status < 400) {
      res = await browser.send(here(res.headers['location'] as string));
      continue;
    }
    page = res.text;
    const login = /<form method="post" action="([^"]+\/login)"[\s\S]*?name="csrf" value="([^"]+)"/.exec(page);
    if (!login) break;
    res = await browser.send(here(login[1] as string), { csrf: login[2] as string, username, password: PASSWORD });
  }
  return { status: res.status, page };
}

it('the admin console lists the users through the admin API at INTERNAL_URL, though AUTH_URL is unreachable from the service', async () => {
  const { status, page } = await open('/auth/admin/public/console/users', 'ida');
  expect(status).toBe(200);
  expect(page).toContain(`listed-${suffix}`);
  expect(page).toContain('>ida</a>');
});

it("a handover gets the handover client's token at INTERNAL_URL: the owner receives the one-time link", async () => {
  const owner = `owner-${suffix}@example.com`;
  const created = await request(real)
    .post(`${ADMIN}/clients`)
    .query({ handoverTo: owner })
    .auth(await sys.adminToken(), { type: 'bearer' })
    .send({ clientId: `svc-${suffix}`, serviceAccountsEnabled: true, standardFlowEnabled: false });
  expect(created.status).toBe(201);
  expect(created.headers['hush-handover']).toMatch(/^[0-9a-f-]{36}$/);
  const [mail] = await sys.smtp.waitFor(owner, 1, 30_000);
  const key = /\/secret\/([0-9a-z]{31})/.exec(mail?.mail.text ?? '')?.[1];
  expect(key).toBeDefined();
  const read = await sys.secrets.http.post(`/api/v1/secret/${key}`);
  expect(read.status).toBe(200);
  // The handed-over secret works at the token endpoint (reached at the listener, as a client inside would).
  const token = await request(real)
    .post('/auth/realms/public/protocol/openid-connect/token')
    .type('form')
    .send({ grant_type: 'client_credentials', client_id: `svc-${suffix}`, client_secret: String((read.body as { value: string }).value) });
  expect(token.status).toBe(200);
});
