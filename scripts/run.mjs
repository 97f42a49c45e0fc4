#!/usr/bin/env node
// The two commands of the README, runnable on a fresh clone with only Node and npm:
//   npm start   install (pnpm and every dependency), build, start the whole system
//   npm test    install, then the format check, lint and typecheck side by side (each uses one
//               core), then the whole test suite (what CI runs; `pnpm check` runs the same steps one by one)
// pnpm is the one the project pins (packageManager); when it is not on PATH, npx fetches it.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { foreground } from './foreground.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager; // pnpm@x.y.z
const version = pinned.split('@')[1];
const node22 = join(root, 'node_modules', 'node', 'bin', 'node');

function sh(command, args, extra = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...extra });
  if (result.error) throw result.error;
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function pnpmCommand() {
  const found = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  if (found.status === 0 && found.stdout.trim() === version) return ['pnpm', []];
  return ['npx', ['-y', `pnpm@${version}`]];
}

const [command, prefix] = pnpmCommand();
const pnpm = (...args) => sh(command, [...prefix, ...args]);

/** Runs pnpm scripts at once; exits with the first failure's status once all have ended. */
async function pnpmSideBySide(...scripts) {
  const children = scripts.map((script) => spawn(command, [...prefix, 'run', '-s', script], { cwd: root, stdio: 'inherit' }));
  const codes = await Promise.all(children.map(async (child) => (await once(child, 'exit'))[0] ?? 1));
  const failed = codes.find((code) => code !== 0);
  if (failed !== undefined) process.exit(failed);
}

pnpm('install', '--frozen-lockfile', '--prefer-offline');
switch (process.argv[2]) {
  case 'start':
    pnpm('exec', 'tsc', '-b', 'services/identity', 'services/secrets', 'services/mailer');
    // The project's Node 22 (docs/adr/0001-node-runtime.md): the binary itself, not the
    // node_modules/.bin/node shell wrapper, which would receive the signals foreground() passes on
    // and, waiting on its child, not hand them down.
    foreground(existsSync(node22) ? node22 : join(root, 'node_modules', '.bin', 'node'), [join(root, 'scripts', 'local.mjs'), ...process.argv.slice(3)], { cwd: root });
    break;
  case 'test':
    await pnpmSideBySide('format:check', 'lint', 'typecheck');
    foreground(command, [...prefix, 'run', '-s', 'jest'], { cwd: root });
    break;
  default:
    process.stderr.write('usage: node scripts/run.mjs start|test\n');
    process.exit(2);
}
