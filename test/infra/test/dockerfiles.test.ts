import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultPort, implemented, managementPort, repoRoot, SERVICES, sourceOf, type ServiceName } from './services.contract.js';

// The service Dockerfiles and the build context they share, checked without a Docker engine.

const dockerfile = (service: ServiceName) => readFileSync(join(repoRoot, 'infra', 'docker', `${service}.Dockerfile`), 'utf8');
const rootPackage = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { packageManager: string; devDependencies: Record<string, string> };

/** The instructions of the last stage (what the image runs). */
function runtimeStage(text: string): string {
  return text.split(/^FROM /m).at(-1) ?? '';
}
const instruction = (stage: string, name: string) => [...stage.matchAll(new RegExp(`^${name} (.+)$`, 'gm'))].map((m) => m[1] ?? '');

describe.each(SERVICES)('infra/docker/%s.Dockerfile', (service) => {
  const text = dockerfile(service);
  const runtime = runtimeStage(text);
  const port = defaultPort(service);
  const management = managementPort(service);

  it('builds in stages from a pinned Node 22 image, the version the workspace pins', () => {
    const from = instruction(text, 'FROM');
    expect(from.length).toBeGreaterThanOrEqual(3);
    const image = /^ARG NODE_IMAGE=(\S+)$/m.exec(text)?.[1] ?? '';
    const nodeVersion = (rootPackage.devDependencies['node'] ?? '').replace(/^[\^~]/, '');
    expect(image).toBe(`node:${nodeVersion}-bookworm-slim`);
    expect(nodeVersion).toMatch(/^22\.\d+\.\d+$/);
    expect(from[0]).toMatch(/^\$\{NODE_IMAGE\} AS deps$/);
    expect(from.at(-1)).toMatch(/^\$\{NODE_IMAGE\} AS runtime$/);
  });

  it('installs with the pinned pnpm from the lockfile and ships production dependencies only', () => {
    expect(text).toContain(`npm install --global ${rootPackage.packageManager}`);
    expect(text).toMatch(/pnpm install --offline --frozen-lockfile/);
    expect(text).toMatch(new RegExp(`^ARG SERVICE=${service}$`, 'm'));
    expect(text).toMatch(/pnpm deploy --legacy --prefer-offline --frozen-lockfile --prod --filter "@hush\/\$\{SERVICE\}"/);
    expect(instruction(runtime, 'COPY')).toEqual(['--from=build /out/ ./']);
    expect(instruction(runtime, 'RUN')).toEqual([]);
  });

  it('runs as a non-root user with NODE_ENV=production', () => {
    const user = instruction(runtime, 'USER');
    expect(user).toHaveLength(1);
    expect(user[0]).toMatch(/^[1-9]\d*:[1-9]\d*$/); // numeric, so Kubernetes can verify runAsNonRoot
    expect(instruction(runtime, 'ENV')).toContain('NODE_ENV=production');
  });

  it('exposes the ports the service listens on, and health-checks its management port', () => {
    expect(instruction(runtime, 'EXPOSE')).toEqual([[port, management].filter((p) => p !== undefined).join(' ')]);
    const healthcheck = /^HEALTHCHECK .*\\\n\s+CMD (\[.*\])$/m.exec(runtime)?.[1];
    expect(healthcheck).toBeDefined();
    const cmd = JSON.parse(healthcheck ?? '[]') as string[];
    expect(cmd.slice(0, 2)).toEqual(['node', '-e']);
    expect(cmd[2]).toContain(`(process.env.MANAGEMENT_PORT||${management})+'/healthz'`);
  });

  it('starts the service with node as PID 1 (exec form), at an entry point that exists, with the Node flags of its start script', () => {
    const cmd = JSON.parse(instruction(runtime, 'CMD').at(-1) ?? '[]') as string[];
    expect(cmd.slice(0, 1)).toEqual(['node']);
    expect(cmd.at(-1)).toBe('dist/src/main.js');
    // The heap sizing (docs/scaling.md) is written in services/*/package.json's start script;
    // scripts/local.mjs and bench/ read it there: the image must run the same command.
    if (implemented(service)) {
      const start = (JSON.parse(readFileSync(join(repoRoot, 'services', service, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
      expect(cmd.join(' ')).toBe(start);
    }
    if (implemented(service)) expect(existsSync(sourceOf(service, 'dist/src/main.js'))).toBe(true);
  });

  it('differs from the other services only in its name, ports and start command (its start script, checked above)', () => {
    const normalise = (s: ServiceName) =>
      dockerfile(s)
        .split('\n')
        .slice(2)
        .join('\n')
        .replace(/^CMD .*$/m, 'CMD')
        .replace(/^(# The (public|management) port.*|EXPOSE .*)$/gm, 'EXPOSE')
        .replaceAll(s, 'SVC')
        .replaceAll(String(managementPort(s)), 'MANAGEMENT_PORT');
    expect(normalise(service)).toEqual(normalise('identity'));
  });
});

/** `.dockerignore` semantics (Go filepath.Match plus `**`, `!` exceptions, last match wins). */
function dockerignored(patterns: string[], path: string): boolean {
  const toRegex = (pattern: string) =>
    new RegExp(
      `^${pattern
        .replace(/^\/+/, '')
        .split('/')
        .map((part) =>
          part === '**'
            ? '.*'
            : part
                .replace(/[.+^${}()|\\]/g, '\\$&')
                .replace(/\*/g, '[^/]*')
                .replace(/\?/g, '[^/]'),
        )
        .join('/')
        .replace(/\.\*\//g, '(?:.*/)?')}$`,
    );
  const prefixes = path.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'));
  let excluded = false;
  for (const line of patterns) {
    const negated = line.startsWith('!');
    const re = toRegex(negated ? line.slice(1) : line);
    if (prefixes.some((p) => re.test(p))) excluded = !negated;
  }
  return excluded;
}

describe('.dockerignore', () => {
  const patterns = readFileSync(join(repoRoot, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

  it.each([
    'node_modules/.pnpm/x/index.js',
    'services/identity/node_modules/knex/package.json',
    'services/identity/dist/src/main.js',
    'packages/common/dist/index.js',
    // A stale tsbuildinfo makes `tsc -b` in the image skip building a package whose dist is not there.
    'packages/common/tsconfig.tsbuildinfo',
    '.env',
    'services/secrets/.env',
    '.env.local',
    '.git/HEAD',
    // Key material anywhere in the tree, and the compose secret files.
    'server.key',
    'infra/compose/tls/server.key',
    'services/identity/certs/tls.pem',
    'backup/keys/identity.p12',
    'keys/identity-master.hex',
    'services/secrets/keys/signing.json',
    'services/identity/.env.production',
    'secrets/identity_master_key',
    'secrets/smtp_url',
    'deploy/secrets/secrets_database_url',
    'ops/id_ed25519',
    '.data/pg/base/1',
  ])('keeps %s out of the build context', (path) => {
    expect(dockerignored(patterns, path)).toBe(true);
  });

  it.each([
    'package.json',
    'pnpm-lock.yaml',
    'pnpm-workspace.yaml',
    '.npmrc',
    'tsconfig.base.json',
    'services/identity/src/main.ts',
    'services/secrets/migrations',
    'packages/common/src/index.ts',
    'services/identity/.env.example',
    'services/identity/src/keys/keys.ts',
    'services/secrets/src/secrets/secrets.repository.ts',
    'services/secrets/package.json',
    'packages/common/src/crypto/crypto.ts',
  ])('keeps %s in the build context', (path) => {
    expect(dockerignored(patterns, path)).toBe(false);
  });
});
