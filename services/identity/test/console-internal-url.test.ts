import { Browser } from '@hush/testing';
import { startIdentity, type Harness } from './harness.js';

const ACCOUNT = '/auth/realms/public/account';
const PASSWORD = 'correct horse battery staple';
/** A public origin this process cannot reach (the .invalid TLD never resolves), as an ingress's can be. */
const PUBLIC = 'http://auth.invalid:8443';

let h: Harness;
let real: string;
beforeAll(async () => {
  h = await startIdentity((url) => {
    real = url;
    return { AUTH_URL: PUBLIC, INTERNAL_URL: url };
  });
  await h.cli('users', 'create', 'ike', '--password', PASSWORD);
});
afterAll(() => h.close());

it('with INTERNAL_URL, the account console signs in though AUTH_URL is unreachable from the service', async () => {
  // The browser reaches the public origin (here: by rewriting it to the listener), the service does not.
  const browser = new Browser(real);
  const here = (url: string) => url.replace(PUBLIC, real);
  let res = await browser.send(`${ACCOUNT}/`);
  let page = '';
  for (let hops = 0; hops < 12; hops++) {
    if (res.status >= 300 && res.status < 400) {
      res = await browser.send(here(new URL(res.headers['location'] as string, PUBLIC).href));
      continue;
    }
    page = res.text;
    const login = /<form method="post" action="([^"]+\/login)"[\s\S]*?name="csrf" value="([^"]+)"/.exec(page);
    if (!login) break;
    res = await browser.send(here(new URL(login[1] as string, PUBLIC).href), { csrf: login[2] as string, username: 'ike', password: PASSWORD });
  }
  expect(res.status).toBe(200);
  expect(page).toContain('<h1>Profile</h1>');
  expect(page).toContain('<span class="note" id="signed-in-as">ike</span>');
});
