import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { connectChromium } from './chromium.js';
import { eventually, startSystem, type System } from './system.js';

/**
 * The recipient's path in a real browser (Debian's Chromium driven by playwright-core): open the
 * link from the e-mail that arrived, reveal with the passphrase, reload, and check the receipt.
 * Screenshots go to test-artifacts/e2e/.
 */
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'e2e');
const VALUE = 'db-password: s3cr3t-Ω-42';

let system: System;
let browser: Browser;
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  system = await startSystem();
  browser = await connectChromium();
});
afterAll(async () => {
  await browser?.close();
  await system?.close();
});

it('the link from the e-mail: GET leaves it unread, the passphrase and a click reveal it, a reload shows it gone, the receipt says received', async () => {
  const { auth } = await system.secrets.account();
  const share = await system.secrets.http
    .post('/api/v1/share')
    .set('Authorization', auth)
    .type('form')
    .send({ secret: VALUE, passphrase: 'blue tulip', recipient: 'grace@example.com' });
  expect(share.status).toBe(200);
  const { metadata_key: metadataKey } = share.body as { metadata_key: string };

  const [mail] = await system.smtp.waitFor('grace@example.com');
  const link = /(http:\/\/\S+\/secret\/[0-9a-z]+)/.exec(mail?.mail.text ?? '')?.[1] as string;
  expect(link).toBeDefined();

  const page = await browser.newPage();
  await page.goto(link);
  await page.screenshot({ path: join(ARTIFACTS, '1-secret-waiting.png'), fullPage: true });
  await expect(page.locator('h1').textContent()).resolves.toContain('Someone sent you a secret');
  expect(await page.content()).not.toContain('s3cr3t');
  const state = async () => ((await system.secrets.http.get(`/api/v1/private/${metadataKey}`).set('Authorization', auth)).body as { state: string }).state;
  expect(await state()).toBe('new'); // the GET consumed nothing

  await page.fill('#passphrase', 'wrong guess');
  await page.click('#reveal');
  await expect(page.locator('[role=alert]').textContent()).resolves.toMatch(/passphrase/i);
  await page.screenshot({ path: join(ARTIFACTS, '2-wrong-passphrase.png'), fullPage: true });

  await page.fill('#passphrase', 'blue tulip');
  await page.click('#reveal');
  await expect(page.locator('#value').inputValue()).resolves.toBe(VALUE);
  await expect(page.locator('#deleted').textContent()).resolves.toContain('deleted');
  await expect(page.locator('#copy').isVisible()).resolves.toBe(true); // the nonce'd script ran under the CSP
  await page.screenshot({ path: join(ARTIFACTS, '3-secret-revealed.png'), fullPage: true });

  await page.goto(link); // a reload, or opening the link again
  await expect(page.locator('h1').textContent()).resolves.toContain('not available');
  expect(await page.content()).not.toContain('s3cr3t');
  await page.screenshot({ path: join(ARTIFACTS, '4-secret-gone.png'), fullPage: true });

  const receipt = await browser.newPage();
  await receipt.goto(`${system.secrets.url}/private/${metadataKey}`);
  await expect(receipt.locator('#state').getAttribute('data-state')).resolves.toBe('received');
  await eventually(async () => {
    await receipt.reload();
    return (await receipt.locator('#delivery').getAttribute('data-status')) === 'sent' ? true : undefined;
  });
  await receipt.screenshot({ path: join(ARTIFACTS, '5-receipt-received.png'), fullPage: true });
}, 60_000);
