import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startSecrets, type Harness } from '../../../services/secrets/test/harness.js';
import { HUSH_BIN, hushUser } from './hush.js';

/**
 * hush as people install it (docs/cli.md): `npm pack` of packages/cli, whose prepack bundles
 * dist/hush.mjs, then `npm install -g` of the tarball into a fresh prefix, offline (the bundle has
 * no dependencies), and the installed `hush` run as a command: its help, and a share and a read
 * against the real secrets service.
 */
const run = promisify(execFile);
const CLI = resolve(HUSH_BIN, '..', '..');

let secrets: Harness;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hush-pack-'));
  secrets = await startSecrets({ ANONYMOUS_SHARES: 'true' });
}, 60_000);
afterAll(async () => {
  await secrets?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('npm pack makes a tarball that npm install -g installs offline; the installed hush shares and reads', async () => {
  await run('npm', ['pack', '--pack-destination', dir], { cwd: CLI });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz')) as string;
  expect(tarball).toMatch(/^hush-cli-\d+\.\d+\.\d+\.tgz$/);
  const { stdout: listed } = await run('tar', ['-tzf', join(dir, tarball)]);
  expect(listed.trim().split('\n').sort()).toEqual(['package/bin/hush.mjs', 'package/dist/hush.mjs', 'package/dist/licenses.txt', 'package/package.json']);

  const prefix = join(dir, 'prefix');
  await run('npm', ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', join(dir, tarball)]);
  const installed = hushUser({ secretsUrl: secrets.url, authUrl: 'http://127.0.0.1:9' }, join(prefix, 'bin', 'hush'));
  expect(await installed.run(['--help'])).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: hush <command>') });

  const shared = await installed.run(['share'], { input: 'from the installed hush' });
  expect(shared.code).toBe(0);
  expect(await installed.run(['read', shared.stdout.trim()])).toMatchObject({ code: 0, stdout: 'from the installed hush' });
}, 120_000);
