import { askForReset } from '../account-mail.js';
import { startIdentity, type Harness } from '../harness.js';
import { atOnce, tally } from './attack.js';

/**
 * Promise: "Forgot password?" requests for one username or address are accepted at most
 * RESET_MAX_PER_ADDRESS times per RESET_WINDOW, however many are sent at once and from however
 * many addresses: no more e-mails than that reach a person's inbox (each request is counted in
 * the step that accepts it).
 */
const MAX = 3;
let h: Harness;

beforeAll(async () => {
  h = await startIdentity({ TRUST_PROXY: 'loopback', RESET_MAX_PER_ADDRESS: String(MAX), RESET_MAX_PER_IP: '1000' });
  await h.cli('users', 'create', 'nora', '--password', 'correct horse battery staple', '--email', 'nora@example.com');
}, 60_000);
afterAll(() => h?.close());

it(`of 12 requests at once for one username from 12 addresses, exactly ${MAX} are accepted, the rest 429`, async () => {
  const answers = await atOnce(12, (i) => askForReset(h, 'nora', `198.51.100.${70 + i}`));
  expect(tally(answers.map((a) => a.status))).toEqual({ 200: MAX, 429: 12 - MAX });
});
