import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASE, loadCompose, MAIL_CATCHER, mergedRaw, readCompose, secretsOf, TLS_PROXY, VARIANTS, type ComposeFile } from './compose.load.js';
import { looksLikeKey, repoRoot, SERVICES, type ServiceName } from './services.contract.js';

// What makes the compose files fit for production: secrets as files, a database role per service,
// resource limits, rotated logs, a PostgreSQL healthcheck over TCP, retried migrations, real SMTP
// with the catcher only in an override, and X-Forwarded-For believed from the proxy only.

const TLS_ENV = { AUTH_URL: 'https://auth.example.com', BASE_URL: 'https://secrets.example.com' };
const load = (files: string[]) => loadCompose(files, TLS_ENV);
const base = load([BASE]);
const initSecrets = join(repoRoot, 'infra', 'compose', 'init-secrets.sh');

/** A variable whose value is a credential (by the names the services give them). */
const secretLike = (name: string) => /(^|_)(KEY|SECRET|PASSWORD|TOKEN)$/.test(name) || ['DATABASE_URL', 'SMTP_URL'].includes(name);

/** Workspace service a compose service runs (by its Dockerfile), or undefined. */
const serviceOf = (c: ComposeFile, name: string) => SERVICES.find((s) => c.services[name]?.build?.dockerfile === `infra/docker/${s}.Dockerfile`);

function runInitSecrets(dir: string, ...args: string[]) {
  return spawnSync('sh', [initSecrets, ...args], { env: { ...process.env, HUSH_SECRETS_DIR: dir }, encoding: 'utf8' });
}

describe('compose in production', () => {
  it.each(VARIANTS.map((files) => [files.join(' + '), files] as const))('passes every credential as a file under /run/secrets, never as a value: %s', (_, files) => {
    const c = load(files);
    for (const [name, svc] of Object.entries(c.services)) {
      for (const [variable, value] of Object.entries(svc.environment ?? {})) {
        const text = String(value);
        // No credentials in any value: no key, no URL with a password.
        expect({ name, variable, clear: looksLikeKey(text) || /:\/\/[^/@\s]*:[^/@\s]*@/.test(text) }).toEqual({ name, variable, clear: false });
        expect({ name, variable, secretLike: secretLike(variable) }).toEqual({ name, variable, secretLike: false });
        if (!variable.endsWith('_FILE')) continue;
        const secret = /^\/run\/secrets\/([a-z_]+)$/.exec(text)?.[1];
        expect({ name, variable, secret: secret !== undefined, mounted: secretsOf(svc).includes(secret ?? '') }).toEqual({ name, variable, secret: true, mounted: true });
        expect({ secret, file: c.secrets?.[secret ?? '']?.file }).toEqual({ secret, file: expect.any(String) });
      }
    }
  });

  it('gives each service every credential it reads, as a file', () => {
    const env = (name: string) => Object.keys(base.services[name]?.environment ?? {});
    expect(env('identity')).toEqual(expect.arrayContaining(['DATABASE_URL_FILE', 'MASTER_KEY_FILE', 'MAIL_SEALING_KEY_FILE', 'HANDOVER_CLIENT_SECRET_FILE']));
    expect(env('identity-migrate')).toEqual(
      expect.arrayContaining(['DATABASE_URL_FILE', 'MASTER_KEY_FILE', 'SECRETS_WEB_CLIENT_SECRET_FILE', 'ADMIN_CLIENT_SECRET_FILE', 'HANDOVER_CLIENT_SECRET_FILE']),
    );
    expect(env('secrets')).toEqual(expect.arrayContaining(['DATABASE_URL_FILE', 'MASTER_KEY_FILE', 'MAIL_SEALING_KEY_FILE', 'WEB_CLIENT_SECRET_FILE']));
    expect(env('mailer')).toEqual(expect.arrayContaining(['SMTP_URL_FILE', 'MAIL_SEALING_KEY_FILE']));
    expect(base.services['postgres']?.environment?.['POSTGRES_PASSWORD_FILE']).toBe('/run/secrets/postgres_password');
  });

  it('connects each service as its own database role: its own URL secret, shared only with its one-shot and the init script', () => {
    const urlSecret = (name: string) => /^\/run\/secrets\/(.+)$/.exec(String(base.services[name]?.environment?.['DATABASE_URL_FILE']))?.[1];
    const byService = new Map<ServiceName, Set<string | undefined>>();
    for (const name of Object.keys(base.services)) {
      const service = serviceOf(base, name);
      if (!service || service === 'mailer') continue;
      byService.set(service, new Set([...(byService.get(service) ?? []), urlSecret(name)]));
    }
    expect([...byService.entries()].map(([s, urls]) => [s, [...urls]])).toEqual([
      ['identity', ['identity_database_url']],
      ['secrets', ['secrets_database_url']],
    ]);
    for (const [name, svc] of Object.entries(base.services)) {
      const holders = secretsOf(svc).filter((s) => s.endsWith('_database_url'));
      const own = urlSecret(name);
      expect({ name, holders }).toEqual({ name, holders: name === 'postgres' ? ['identity_database_url', 'secrets_database_url'] : own ? [own] : [] });
    }
    const init = base.services['postgres']?.volumes?.find((v) => v.includes('/docker-entrypoint-initdb.d/'));
    expect(init).toMatch(/^\.\/infra\/compose\/postgres-init\.sh:\/docker-entrypoint-initdb\.d\/[\w-]+\.sh:ro$/);
  });

  it('health-checks PostgreSQL over TCP, so the init server (socket only) never counts as ready', () => {
    const test = [base.services['postgres']?.healthcheck?.test ?? []].flat();
    expect(test.slice(0, 2)).toEqual(['CMD', 'pg_isready']);
    expect(test[test.indexOf('-h') + 1]).toBe('127.0.0.1');
  });

  it('retries the one-shot migrations while the database is not reachable yet', () => {
    for (const name of ['identity-migrate', 'secrets-migrate']) {
      const command = [base.services[name]?.command ?? []].flat();
      expect(command.slice(0, 2)).toEqual(['sh', '-c']);
      // The loop as the container's shell runs it: a command that fails twice, then succeeds.
      const dir = mkdtempSync(join(tmpdir(), 'hush-retry-'));
      try {
        const flaky = `n=$(cat ${dir}/n 2>/dev/null || echo 0); echo $((n+1)) > ${dir}/n; [ "$n" -ge 2 ]`;
        const loop = (command[2] ?? '').replace('sleep 5', 'sleep 0');
        const result = spawnSync('sh', ['-c', loop, 'retry', 'sh', '-c', flaky], { encoding: 'utf8' });
        expect({ status: result.status, attempts: readFileSync(join(dir, 'n'), 'utf8').trim() }).toEqual({ status: 0, attempts: '3' });
        const never = spawnSync('sh', ['-c', loop, 'retry', 'false'], { encoding: 'utf8' });
        expect(never.status).toBe(1);
        expect(never.stderr).toContain('attempt 6 of 6 failed');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it.each(VARIANTS.map((files) => [files.join(' + '), files] as const))('limits the CPU and memory of every service and rotates its logs: %s', (_, files) => {
    for (const [name, svc] of Object.entries(load(files).services)) {
      const limits = svc.deploy?.resources?.limits;
      expect({ name, cpus: Number(limits?.cpus) > 0, memory: /^\d+[kmg]$/i.test(String(limits?.memory)) }).toEqual({ name, cpus: true, memory: true });
      expect({ name, driver: svc.logging?.driver, maxSize: svc.logging?.options?.['max-size'], maxFile: Number(svc.logging?.options?.['max-file']) > 0 }).toEqual({
        name,
        driver: 'json-file',
        maxSize: expect.stringMatching(/^\d+m$/),
        maxFile: true,
      });
    }
  });

  it('sends mail through a real relay by default; the catcher exists only in its override', () => {
    const catchers = (c: ComposeFile) =>
      Object.entries(c.services)
        .filter(([, s]) => /mailpit|mailhog|maildev|smtp4dev/i.test(s.image ?? ''))
        .map(([n]) => n);
    expect(catchers(base)).toEqual([]);
    expect(base.secrets?.['smtp_url']?.file).toBe('./secrets/smtp_url');
    const withCatcher = load([BASE, MAIL_CATCHER]);
    expect(catchers(withCatcher)).toEqual(['mailpit']);
    const catcherUrl = readFileSync(join(repoRoot, withCatcher.secrets?.['smtp_url']?.file ?? ''), 'utf8').trim();
    expect(new URL(catcherUrl).hostname).toBe('mailpit');
    expect(withCatcher.services['mailer']?.depends_on?.['mailpit']?.condition).toBe('service_healthy');
    expect(readCompose(MAIL_CATCHER).services['mailpit']?.ports).toEqual(['127.0.0.1:8025:8025']);
  });

  it('believes X-Forwarded-For only from the proxy: the network gateway, or the TLS proxy of its override; never "true"', () => {
    const gateway = base.networks?.['default']?.ipam?.config?.[0]?.gateway;
    expect(gateway).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    for (const files of VARIANTS) {
      const c = load(files);
      const proxy = c.services['proxy']?.networks?.['default']?.ipv4_address;
      for (const name of ['identity', 'secrets']) {
        const trust = String(c.services[name]?.environment?.['TRUST_PROXY']);
        expect({ files, name, trust }).toEqual({ files, name, trust: files.includes(TLS_PROXY) ? proxy : gateway });
        expect(trust).not.toMatch(/^(true|1|yes)$/i);
      }
    }
    for (const files of VARIANTS) {
      const c = mergedRaw(files);
      for (const [name, svc] of Object.entries(c.services)) expect({ name, trust: svc.environment?.['TRUST_PROXY'] === 'true' }).toEqual({ name, trust: false });
    }
  });

  it('runs the TLS proxy, in the subnet, before identity and secrets, and refuses to start without https origins', () => {
    const c = load([BASE, TLS_PROXY]);
    const proxy = c.services['proxy'];
    expect(proxy?.networks?.['default']?.ipv4_address).toMatch(/^172\.28\.0\.\d+$/);
    expect(base.networks?.['default']?.ipam?.config?.[0]?.subnet).toBe('172.28.0.0/24');
    expect(proxy?.volumes).toContain('./infra/compose/Caddyfile:/etc/caddy/Caddyfile:ro');
    const caddyfile = readFileSync(join(repoRoot, 'infra', 'compose', 'Caddyfile'), 'utf8');
    expect(caddyfile).toMatch(/\{\$AUTH_URL\} \{[^}]*reverse_proxy identity:8080/);
    expect(caddyfile).toMatch(/\{\$BASE_URL\} \{[^}]*reverse_proxy secrets:3000/);
    expect(() => loadCompose([BASE, TLS_PROXY], {})).toThrow(/AUTH_URL|BASE_URL/);
  });
});

describe('infra/compose/init-secrets.sh', () => {
  let dir: string;
  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'hush-secrets-')), 'secrets');
  });
  afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

  it('refuses to run without an SMTP relay, naming what to give', () => {
    const result = runInitSecrets(dir);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/SMTP relay's URL.*smtp:\/\//);
    expect(runInitSecrets(dir, 'http://smtp.example.com').status).toBe(2);
  });

  it('writes every secret file the compose files mount, in a private folder, and never overwrites one', () => {
    expect(runInitSecrets(dir, 'smtp://user:pw@smtp.example.com:587').status).toBe(0);
    const written = readdirSync(dir).sort();
    const mounted = Object.values(readCompose(BASE).secrets ?? {}).map((s) => s.file?.replace('./secrets/', '') ?? '');
    expect(written).toEqual(mounted.sort());
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const read = (name: string) => readFileSync(join(dir, name), 'utf8').trim();
    for (const key of ['identity_master_key', 'secrets_master_key', 'mail_sealing_key']) expect(looksLikeKey(read(key))).toBe(true);
    expect(read('identity_master_key')).not.toBe(read('secrets_master_key'));
    const urls = ['identity', 'secrets'].map((s) => new URL(read(`${s}_database_url`)));
    expect(urls.map((u) => [u.username, u.pathname, u.hostname])).toEqual([
      ['hush_identity', '/hush_identity', 'postgres'],
      ['hush_secrets', '/hush_secrets', 'postgres'],
    ]);
    expect(urls[0]?.password).not.toBe(urls[1]?.password);
    expect(read('smtp_url')).toBe('smtp://user:pw@smtp.example.com:587');

    const before = execFileSync('sh', ['-c', `cat ${dir}/*`], { encoding: 'utf8' });
    expect(runInitSecrets(dir, 'smtp://other.example.com').status).toBe(0);
    expect(execFileSync('sh', ['-c', `cat ${dir}/*`], { encoding: 'utf8' })).toBe(before);
  });

  it('with --mail-catcher writes no SMTP URL: the catcher override supplies it', () => {
    expect(runInitSecrets(dir, '--mail-catcher').status).toBe(0);
    expect(readdirSync(dir)).not.toContain('smtp_url');
  });
});
