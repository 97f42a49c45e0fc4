import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, eventually, freePort, testRedisUrl, uniquePrefix, type TestDatabase } from '@hush/testing';
import { repoRoot, SERVICES, type ServiceName } from './services.contract.js';

// No Docker engine runs here (nor a builder in CI): this test runs each Dockerfile's own build
// commands (the `tsc -b` and `pnpm deploy` lines of its build stage, read from the file) outside
// Docker, into a temporary folder standing for the image's /app, then the image's CMD there, and
// expects the service to answer on its management port. As in the image, the deploy starts with no
// registry metadata cached (a fresh --cache-dir); the packages come from the local pnpm store.

const rootPackage = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { packageManager: string };
const dockerfile = (service: ServiceName) => readFileSync(join(repoRoot, 'infra', 'docker', `${service}.Dockerfile`), 'utf8');

/** The RUN commands of the build stage, continuation lines joined. */
function buildStageRuns(text: string): string[] {
  const stage = text.split(/^FROM /m).find((s) => s.startsWith('deps AS build')) ?? '';
  return [...stage.replace(/\\\n\s*/g, ' ').matchAll(/^RUN (.+)$/gm)].map((m) => m[1] ?? '');
}

/** The words of a command line, shell quotes removed, variables as the image's (SERVICE, the store). */
function words(command: string, vars: Record<string, string>): string[] {
  return (command.match(/"[^"]*"|\S+/g) ?? []).map((w) => w.replace(/^"|"$/g, '').replace(/\$\{?([A-Z_]+)\}?/g, (_, name: string) => vars[name] ?? `$${name}`));
}

interface Run {
  code: number | null;
  /** stdout and stderr interleaved, for failure messages. */
  out: string;
  /** stdout alone (npm prints its warnings about the npm_config_* variables of `npm test` on stderr). */
  stdout: string;
}
function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, stdout }));
  });
}

/**
 * The pinned pnpm (the root package's packageManager) and the local store, found through one npx
 * call for the three images, then run directly (an npx start costs more CPU than the pnpm command
 * it runs; the image runs pnpm directly too). `store path` names the store's versioned folder;
 * --store-dir takes the one above it.
 */
let pinned: Promise<{ bin: string; store: string }> | undefined;
const pinnedPnpm = () =>
  (pinned ??= run('npx', ['--yes', '-p', rootPackage.packageManager, '-c', 'command -v pnpm && pnpm store path'], { cwd: repoRoot }).then((found) => {
    const [bin = '', store = ''] = found.stdout
      .trim()
      .split('\n')
      .slice(-2)
      .map((line) => line.trim());
    if (found.code !== 0 || !bin || !store) throw new Error(`no ${rootPackage.packageManager} through npx: ${found.out}`);
    return { bin: realpathSync(bin), store: store.replace(/\/v\d+$/, '') };
  }));

const pnpm = async (args: string[], cwd: string) => run(process.execPath, [(await pinnedPnpm()).bin, ...args], { cwd });

/** The build stage's install, compile and deploy lines of a service's Dockerfile. */
function buildSteps(service: ServiceName) {
  const runs = buildStageRuns(dockerfile(service));
  return { install: runs.find((r) => r.startsWith('pnpm install ')), compile: runs.find((r) => r.includes('tsc -b')), deploy: runs.find((r) => r.startsWith('pnpm deploy ')) };
}

/**
 * The compile lines of the three Dockerfiles, run once and one after the other (they build shared
 * packages into the same folders), before the deploys, which run side by side.
 */
let compiling: Promise<number[]> | undefined;
const compileAll = () =>
  (compiling ??= (async () => {
    const codes: number[] = [];
    for (const service of SERVICES) {
      const tsc = words(buildSteps(service).compile ?? '', { SERVICE: service });
      codes.push((await run(tsc[0] ?? 'node', tsc.slice(1), { cwd: repoRoot })).code ?? -1);
    }
    return codes;
  })());

/** Builds `service` as its Dockerfile does into a fresh folder (the image's /app). */
async function buildAsImage(service: ServiceName, work: string): Promise<string> {
  const out = join(work, 'app');
  const { store } = await pinnedPnpm();
  const vars = { SERVICE: service, PNPM_STORE: store };
  const { install, compile, deploy } = buildSteps(service);
  expect({ install, compile, deploy }).toEqual({ install: expect.any(String), compile: expect.any(String), deploy: expect.any(String) });
  // The workspace's own install stands for the image's (offline, from the lockfile, frozen).
  expect(install).toMatch(/--offline --frozen-lockfile/);
  expect(await compileAll()).toEqual(SERVICES.map(() => 0));
  const [deployLine = '', cleanup = ''] = (deploy ?? '').split(' && ');
  const deployArgs = words(deployLine, vars)
    .slice(1)
    .map((w) => (w === '/out' ? out : w));
  const deployed = await pnpm([...deployArgs, '--cache-dir', join(work, 'cache')], repoRoot);
  expect({ code: deployed.code, out: deployed.code === 0 ? '' : deployed.out }).toEqual({ code: 0, out: '' });
  const removed = words(cleanup, vars);
  expect(removed.slice(0, 2)).toEqual(['rm', '-rf']);
  for (const path of removed.slice(2)) rmSync(path.replace(/^\/out/, out), { recursive: true, force: true });
  return out;
}

/** CMD of the runtime stage (exec form). */
const imageCmd = (service: ServiceName) =>
  JSON.parse(
    /^CMD (\[.*\])$/m.exec(
      dockerfile(service)
        .split(/^FROM /m)
        .at(-1) ?? '',
    )?.[1] ?? '[]',
  ) as string[];

async function answersHealthz(port: number): Promise<number | undefined> {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
  return res?.ok ? res.status : undefined;
}

const databases: TestDatabase[] = [];
const workDirs: string[] = [];
afterAll(async () => {
  await Promise.all(databases.map((db) => db.drop()));
  for (const dir of workDirs) rmSync(dir, { recursive: true, force: true });
});

describe("each image, built outside Docker by its Dockerfile's commands", () => {
  // Side by side: the deploys wait mostly on the registry's metadata.
  it.concurrent.each(SERVICES)(
    '%s: holds production dependencies only, workspace packages as real copies, and starts: its management port answers /healthz',
    async (service) => {
      const started = Date.now();
      const work = mkdtempSync(join(tmpdir(), `hush-image-${service}-`));
      workDirs.push(work);
      const app = await buildAsImage(service, work);
      const built = Date.now() - started;

      // What the image holds: compiled code and production dependencies; no sources, no dev tools.
      expect(existsSync(join(app, 'dist', 'src', 'main.js'))).toBe(true);
      expect(existsSync(join(app, 'src'))).toBe(false);
      for (const dev of ['typescript', 'jest', '@hush/testing']) expect({ dev, present: existsSync(join(app, 'node_modules', dev)) }).toEqual({ dev, present: false });
      const common = realpathSync(join(app, 'node_modules', '@hush', 'common'));
      expect(common.startsWith(realpathSync(app))).toBe(true); // a copy inside /app, not a link into the workspace

      const port = await freePort();
      const env: NodeJS.ProcessEnv = { NODE_ENV: 'production', MANAGEMENT_PORT: String(port), LOG_LEVEL: 'warn', REDIS_URL: testRedisUrl, PATH: process.env.PATH ?? '' };
      Object.assign(env, { MAIL_SEALING_KEY: randomBytes(32).toString('hex'), QUEUE_PREFIX: uniquePrefix('image') });
      if (service === 'mailer') {
        Object.assign(env, { SMTP_URL: `smtp://127.0.0.1:${await freePort()}` });
      } else {
        const db = await createTestDatabase(`image_${service}`);
        databases.push(db);
        Object.assign(env, { DATABASE_URL: db.url, MASTER_KEY: randomBytes(32).toString('hex'), PORT: String(await freePort()), REDIS_PREFIX: `${uniquePrefix('image')}:` });
        // The compose one-shot's command, in the image: migrations from the image's dist/migrations.
        const command = service === 'identity' ? 'bootstrap' : 'migrate';
        const cli = await run('node', ['dist/src/cli/main.js', command], { cwd: app, env });
        expect({ code: cli.code, out: cli.code === 0 ? '' : cli.out }).toEqual({ code: 0, out: '' });
      }

      const [node = 'node', ...args] = imageCmd(service);
      expect(node).toBe('node');
      const child = spawn(process.execPath, args, { cwd: app, env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      try {
        // A deadline for a process that fails to start without exiting, not a speed: a first start from
        // a fresh folder (no code cache) beside the rest of the suite on a slow machine can take 20 s.
        const status = await eventually(() => (child.exitCode === null ? answersHealthz(port) : Promise.reject(new Error(`exited ${child.exitCode}: ${stderr}`))), 90_000);
        expect(status).toBe(200);
      } finally {
        child.kill('SIGTERM');
        if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
      }
      // The figure the report quotes: build (tsc -b and pnpm deploy) of one image's files.
      // eslint-disable-next-line no-console -- the figure is read from the test output
      console.info(`${service}: built in ${built} ms, answering in ${Date.now() - started} ms`);
    },
    // Three builds side by side on two cores that other work keeps busy take minutes; a retry would redo them all.
    300_000,
  );
});
