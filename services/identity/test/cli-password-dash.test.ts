import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { identityPerFile, type Harness } from './harness.js';

/**
 * The launcher (scripts/local.mjs) gives the demo user a random base64url password: 1 in 64
 * starts with '-', which `--password <value>` reads as an option, and the start failed.
 */
let h: Harness;
identityPerFile((harness) => (h = harness));

it('takes a password starting with "-" as --password=<value>, the form the launcher uses', async () => {
  await h.cli('users', 'create', 'dash', '--password', 'first password here');
  const separate = await h.cliRaw('users', 'set-password', 'dash', '--password', '-starts-with-a-dash');
  expect(separate.code).not.toBe(0);
  const joined = await h.cliRaw('users', 'set-password', 'dash', '--password=-starts-with-a-dash', '--json');
  expect(joined.code).toBe(0);
  expect(JSON.parse(joined.stdout)).toEqual({ username: 'dash', updated: true });
  const launcher = readFileSync(join(process.cwd(), 'scripts', 'local.mjs'), 'utf8');
  expect(launcher).toContain("'set-password', 'demo', `--password=${password}`");
  expect(launcher).toContain("'create', 'demo', `--password=${password}`");
});
