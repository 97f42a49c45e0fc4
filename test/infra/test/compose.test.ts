import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { interpolate, interpolateAll, MissingVariable } from './compose.interpolate.js';
import { cliCommands, defaultPort, implemented, managementPort, isReadBy, looksLikeKey, repoRoot, REQUIRED, SERVICES, sourceOf, type ServiceName } from './services.contract.js';

// docker-compose.yml checked without a Docker engine: against the Compose specification, and
// against what the services really read, listen on and run.

interface ComposeService {
  image?: string;
  build?: { context?: string; dockerfile?: string };
  command?: string[] | string;
  environment?: Record<string, string | number | boolean | null>;
  ports?: string[];
  healthcheck?: { test?: string[] | string };
  depends_on?: Record<string, { condition?: string }>;
  volumes?: string[];
  restart?: string;
  read_only?: boolean;
}
interface ComposeFile {
  services: Record<string, ComposeService>;
}

const composeText = readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8');
const raw = parse(composeText) as ComposeFile;
const ENV = {
  IDENTITY_MASTER_KEY: 'a'.repeat(64),
  SECRETS_MASTER_KEY: 'b'.repeat(64),
  POSTGRES_PASSWORD: 'pw',
  SECRETS_WEB_CLIENT_SECRET: 'c'.repeat(40),
  MAIL_SEALING_KEY: 'd'.repeat(64),
};
const compose = interpolateAll(raw, ENV);

/** The workspace service whose image a compose service runs, from its Dockerfile's name. */
function serviceOf(svc: ComposeService): ServiceName | undefined {
  const m = /^infra\/docker\/([a-z]+)\.Dockerfile$/.exec(svc.build?.dockerfile ?? '');
  return SERVICES.find((s) => s === m?.[1]);
}
const appServices = Object.entries(raw.services).flatMap(([name, svc]) => {
  const service = serviceOf(svc);
  return service ? [{ name, service, svc, env: compose.services[name]?.environment ?? {} }] : [];
});
const longRunning = appServices.filter((a) => a.svc.command === undefined);
const oneShot = appServices.filter((a) => a.svc.command !== undefined);

/** CMD of a service's Dockerfile (exec form). */
function dockerfileCmd(service: ServiceName): string[] {
  const text = readFileSync(join(repoRoot, 'infra', 'docker', `${service}.Dockerfile`), 'utf8');
  const m = /^CMD (\[.*\])$/m.exec(text);
  return m?.[1] ? (JSON.parse(m[1]) as string[]) : [];
}
const hostOf = (url: unknown) => (typeof url === 'string' && url ? new URL(url).hostname : undefined);

// The interface spec's copy of the Compose schema, beside the checkout; a clone elsewhere (CI) uses
// the copy checked in here, which the first test keeps identical to the spec's whenever both exist.
const specSchemaPath = join(repoRoot, '..', 'shared', 'spec', 'compose-spec.schema.json');
const vendoredSchemaPath = join(repoRoot, 'test', 'infra', 'compose-spec.schema.json');
const composeSchemaPath = existsSync(specSchemaPath) ? specSchemaPath : vendoredSchemaPath;

describe('docker-compose.yml', () => {
  it("checks against the spec's Compose schema (the checked-in copy is identical to it)", () => {
    if (existsSync(specSchemaPath)) expect(readFileSync(vendoredSchemaPath, 'utf8')).toBe(readFileSync(specSchemaPath, 'utf8'));
    expect(existsSync(composeSchemaPath)).toBe(true);
  });

  it('is valid against the Compose specification', () => {
    const schema = JSON.parse(readFileSync(composeSchemaPath, 'utf8')) as Record<string, unknown>;
    delete schema['$schema']; // draft-07 under an https URL Ajv does not know by that name
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const validate = ajv.compile(schema);
    expect(validate(raw) ? [] : validate.errors).toEqual([]);
  });

  it('runs identity, secrets and the mailer, each from its own Dockerfile, plus their one-shot migrations', () => {
    expect(new Set(longRunning.map((a) => a.service))).toEqual(new Set(SERVICES));
    expect(oneShot.map((a) => `${a.service}: ${String(a.svc.command)}`).sort()).toEqual([
      'identity: node,dist/src/cli/main.js,bootstrap',
      'secrets: node,dist/src/cli/main.js,migrate',
    ]);
    for (const { svc } of oneShot) expect(svc.restart).toBe('no');
    for (const name of ['postgres', 'redis', 'mailpit']) expect(raw.services[name]).toBeDefined();
  });

  it('sets only variables the service reads (directly or as <NAME>_FILE)', () => {
    const unknown = appServices.flatMap(({ name, service, svc }) =>
      Object.keys(svc.environment ?? {})
        .filter((v) => !isReadBy(service, v))
        .map((v) => `${name}: ${v}`),
    );
    expect(unknown).toEqual([]);
  });

  it('gives every long-running service its required variables, the keys only from .env, and refuses to start without them', () => {
    for (const { name, service, svc } of appServices) {
      for (const key of REQUIRED[service]) {
        const value = svc.environment?.[key] ?? svc.environment?.[`${key}_FILE`];
        expect({ name, key, set: value !== undefined && value !== null && value !== '' }).toEqual({ name, key, set: true });
      }
      const masterKey = svc.environment?.['MASTER_KEY'];
      if (masterKey !== undefined) {
        expect(String(masterKey)).toMatch(/^\$\{[A-Z_]+:\?[^}]+\}$/);
        expect(() => interpolate(String(masterKey), {})).toThrow(MissingVariable);
      }
    }
    for (const key of Object.keys(ENV)) {
      expect(() => interpolateAll(raw, { ...ENV, [key]: '' })).toThrow(MissingVariable);
    }
    expect(composeText.split(/\s+/).filter(looksLikeKey)).toEqual([]);
  });

  it('gives identity and secrets different master keys', () => {
    const keyVar = (name: string) => String(raw.services[name]?.environment?.['MASTER_KEY']);
    expect(keyVar('identity')).not.toEqual(keyVar('secrets'));
    for (const { name, service } of oneShot) expect(keyVar(name)).toEqual(keyVar(service));
  });

  it('gives the mail queue’s producers (secrets, identity) and the mailer one MAIL_SEALING_KEY, from .env only, and no other service it', () => {
    const sealingKey = (name: string) => raw.services[name]?.environment?.['MAIL_SEALING_KEY'];
    const holders = ['secrets', 'identity', 'mailer'];
    expect(String(sealingKey('secrets'))).toMatch(/^\$\{MAIL_SEALING_KEY:\?[^}]+\}$/);
    for (const name of holders) expect({ name, key: sealingKey(name) }).toEqual({ name, key: sealingKey('secrets') });
    for (const name of Object.keys(raw.services)) if (!holders.includes(name)) expect({ name, key: sealingKey(name) }).toEqual({ name, key: undefined });
  });

  it('publishes only the public port of each service, and health-checks /healthz on its management port', () => {
    for (const { name, service, env, svc } of longRunning) {
      const port = env['PORT'] === undefined ? defaultPort(service) : Number(env['PORT']);
      expect({ name, port }).toEqual({ name, port: defaultPort(service) });
      const published = (svc.ports ?? []).map((mapping) => mapping.split(':').at(-1));
      expect({ name, published }).toEqual({ name, published: port === undefined ? [] : [String(port)] });
      const management = Number(env['MANAGEMENT_PORT'] ?? managementPort(service));
      const test = [compose.services[name]?.healthcheck?.test ?? []].flat().join(' ');
      expect(test).toContain(`127.0.0.1:${management}/healthz`);
    }
  });

  it('runs entry points and CLI commands that exist in the services', () => {
    for (const { name, service, svc } of appServices) {
      if (!implemented(service)) continue; // the mailer's source is still being written
      const command = svc.command === undefined ? dockerfileCmd(service) : [svc.command].flat();
      expect(command[0]).toBe('node');
      // Node's own flags (the heap sizing of the start scripts) come before the entry point.
      const at = command.findIndex((word, i) => i > 0 && !word.startsWith('--'));
      const entry = command[at] ?? '';
      expect({ name, entry, exists: existsSync(sourceOf(service, entry)) }).toEqual({ name, entry, exists: true });
      const sub = command[at + 1];
      if (sub) expect({ name, sub, known: cliCommands(service).has(sub) }).toEqual({ name, sub, known: true });
    }
  });

  it('starts a service only once what it uses is healthy and its migrations have completed', () => {
    for (const { name, env, svc } of appServices) {
      const deps = svc.depends_on ?? {};
      const uses = [hostOf(env['DATABASE_URL']), hostOf(env['REDIS_URL']), hostOf(env['SMTP_URL'])].filter((h): h is string => h !== undefined);
      for (const host of uses) {
        expect({ name, host, condition: deps[host]?.condition }).toEqual({ name, host, condition: 'service_healthy' });
      }
    }
    for (const { name, service } of longRunning.filter((a) => a.service !== 'mailer')) {
      const migrate = oneShot.find((o) => o.service === service);
      expect(migrate).toBeDefined();
      expect(raw.services[name]?.depends_on?.[migrate?.name ?? '']?.condition).toBe('service_completed_successfully');
    }
    for (const [name, svc] of Object.entries(raw.services)) {
      for (const [dep, { condition }] of Object.entries(svc.depends_on ?? {})) {
        expect(raw.services[dep]).toBeDefined();
        if (condition === 'service_healthy') expect({ name, dep, healthcheck: raw.services[dep]?.healthcheck !== undefined }).toEqual({ name, dep, healthcheck: true });
      }
    }
  });

  it('runs Redis with noeviction and creates the databases the services connect to', () => {
    expect([raw.services['redis']?.command].flat().join(' ')).toMatch(/--maxmemory-policy noeviction/);
    const init = raw.services['postgres']?.volumes?.find((v) => v.includes('/docker-entrypoint-initdb.d/'));
    expect(init).toBeDefined();
    const sql = readFileSync(join(repoRoot, (init ?? '').split(':')[0] ?? ''), 'utf8');
    for (const { name, env } of appServices) {
      const url = env['DATABASE_URL'];
      if (typeof url !== 'string') continue;
      const database = new URL(url).pathname.slice(1);
      expect({ name, database, created: new RegExp(`CREATE DATABASE ${database};`).test(sql) }).toEqual({ name, database, created: true });
    }
  });

  it('wires secrets to identity: public issuer, internal JWKS, the audience bootstrap registers, one queue prefix', () => {
    for (const overrides of [{}, { AUTH_URL: 'https://auth.example.com', BASE_URL: 'https://s.example.com', QUEUE_PREFIX: 'q1' }]) {
      const c = interpolateAll(raw, { ...ENV, ...overrides });
      const env = (n: string) => c.services[n]?.environment ?? {};
      expect(env('secrets')['IDENTITY_ISSUER']).toBe(`${String(env('identity')['AUTH_URL'])}/auth/realms/public`);
      expect(env('identity-migrate')['SECRETS_API_AUDIENCE']).toBe(env('secrets')['API_AUDIENCE'] ?? `${String(env('secrets')['BASE_URL'])}/api/v1`);
      expect(env('secrets')['IDENTITY_JWKS_URL']).toBe(`http://identity:${defaultPort('identity')}/auth/realms/public/protocol/openid-connect/certs`);
      expect(env('secrets')['QUEUE_PREFIX']).toBe(env('mailer')['QUEUE_PREFIX']);
      expect(env('identity')['QUEUE_PREFIX']).toBe(env('mailer')['QUEUE_PREFIX']);
    }
  });

  it("wires the web app: bootstrap registers its client for secrets' BASE_URL with the secret secrets signs in with, reached inside the network", () => {
    for (const overrides of [{}, { AUTH_URL: 'https://auth.example.com', BASE_URL: 'https://s.example.com' }]) {
      const c = interpolateAll(raw, { ...ENV, ...overrides });
      const env = (n: string) => c.services[n]?.environment ?? {};
      expect(env('identity-migrate')['SECRETS_BASE_URL']).toBe(env('secrets')['BASE_URL']);
      expect(env('identity-migrate')['SECRETS_WEB_CLIENT_SECRET']).toBe(ENV.SECRETS_WEB_CLIENT_SECRET);
      expect(env('secrets')['WEB_CLIENT_SECRET']).toBe(ENV.SECRETS_WEB_CLIENT_SECRET);
      expect(env('secrets')['IDENTITY_INTERNAL_URL']).toBe(`http://identity:${defaultPort('identity')}`);
    }
  });

  it('documents every variable it reads from .env in the root .env.example, the required ones without a value', () => {
    const example = readFileSync(join(repoRoot, '.env.example'), 'utf8');
    const used = new Set([...composeText.matchAll(/\$\{([A-Z_][A-Z0-9_]*)/g)].map((m) => m[1] ?? ''));
    const required = new Set([...composeText.matchAll(/\$\{([A-Z_][A-Z0-9_]*):\?/g)].map((m) => m[1] ?? ''));
    for (const name of used) {
      const line = required.has(name) ? new RegExp(`^${name}=$`, 'm') : new RegExp(`^#? ?${name}=`, 'm');
      expect({ name, documented: line.test(example) }).toEqual({ name, documented: true });
    }
  });
});
