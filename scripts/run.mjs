#!/usr/bin/env node
// The two commands of the README, runnable on a fresh clone with only Node and npm:
//   npm start   install (pnpm and every dependency), build, start the whole system
//   npm test    install, then the build of the product's sources (what the suite starts as
//               processes) and the format check side by side, then the whole test suite with lint
//               and the rest of the typecheck (the tests' own projects) beside it (their reports
//               printed once the suite has ended); what CI runs. `pnpm check` runs the same steps
//               one by one.
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

/** The scripts running now, which a signal that stops this launcher stops too (`passSignals`). */
const running = new Set();
function passSignals() {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (running.size === 0) process.exit(1);
      for (const child of running) child.kill(signal);
    });
  }
}

/** Runs a pnpm script; resolves to its exit status. `quiet` keeps its output and prints it once it has ended. */
async function pnpmScript(script, { quiet = false } = {}) {
  const child = spawn(command, [...prefix, 'run', '-s', script], { cwd: root, stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  const output = [];
  if (quiet) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => output.push(chunk));
  const [code] = await once(child, 'exit');
  if (output.length > 0) process.stdout.write(Buffer.concat(output));
  return code ?? 1;
}

/** Runs pnpm scripts at once; exits with the first failure's status once all have ended. */
async function sideBySide(...runs) {
  const failed = (await Promise.all(runs)).find((code) => code !== 0);
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
    // Each check uses one core and the suite leaves some idle (its files wait on PostgreSQL,
    // Chromium and child processes): lint, which writes nothing, runs beside the suite, and so does
    // the typecheck of the tests' projects, which writes only their declarations (dist-test); the
    // product's sources are built first, since the suite starts what they build.
    passSignals();
    await sideBySide(pnpmScript('build:src'), pnpmScript('format:check'));
    await sideBySide(pnpmScript('jest'), pnpmScript('lint', { quiet: true }), pnpmScript('typecheck', { quiet: true }));
    break;
  default:
    process.stderr.write('usage: node scripts/run.mjs start|test\n');
    process.exit(2);
}
